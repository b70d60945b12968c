# SPDX-License-Identifier: Apache-2.0
# Install layout and packages (DEB, TGZ). `cmake --build --preset release --target package` writes them to
# build/release/packages/.
include(GNUInstallDirs)
find_package(Python3 REQUIRED COMPONENTS Interpreter)
find_program(FAULTLINE_GZIP gzip REQUIRED)

# Man pages, made from each program's own --help so that they cannot drift from it.
set(faultline_man_pages)
function(faultline_man_page NAME PROGRAM PROGRAM_DEPENDS SUMMARY)
  set(man ${CMAKE_CURRENT_LIST_DIR}/man)
  add_custom_command(
    OUTPUT ${FAULTLINE_MAN_DIR}/${NAME}.1.gz
    COMMAND ${CMAKE_COMMAND} -DPROGRAM=${PROGRAM} -DNAME=${NAME} "-DSUMMARY=${SUMMARY}" -DVERSION=${PROJECT_VERSION}
            -DDESCRIPTION=${man}/${NAME}.description -DEXTRA=${man}/${NAME}.extra -DPYTHON=${Python3_EXECUTABLE}
            -DGZIP=${FAULTLINE_GZIP} -DOUT=${FAULTLINE_MAN_DIR}/${NAME}.1.gz -P ${man}/make_man.cmake
    DEPENDS ${PROGRAM_DEPENDS} ${man}/make_man.cmake ${man}/help_to_man.py ${man}/${NAME}.description ${man}/${NAME}.extra
    COMMENT "Man page ${NAME}(1) from its --help"
    VERBATIM)
  set(faultline_man_pages ${faultline_man_pages} ${FAULTLINE_MAN_DIR}/${NAME}.1.gz PARENT_SCOPE)
endfunction()
faultline_man_page(faultline-cli $<TARGET_FILE:faultline-cli> faultline-cli "run Faultline's attribution engine headless")
faultline_man_page(faultline $<TARGET_FILE:faultline> faultline "forensic workbench for failed distributed AI jobs")
set(FAULTLINE_COLLECT ${CMAKE_CURRENT_LIST_DIR}/collect/faultline-collect)
faultline_man_page(faultline-collect ${FAULTLINE_COLLECT} ${FAULTLINE_COLLECT}
                   "gather one failed workload attempt's evidence into a Faultline bundle")
add_custom_target(faultline_man_pages ALL DEPENDS ${faultline_man_pages})
install(FILES ${faultline_man_pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

# The AppStream screenshot, taken from the workbench itself on the sample incident (offscreen, at build time).
set(FAULTLINE_SCREENSHOT ${CMAKE_BINARY_DIR}/screenshots/workbench.png)
file(GLOB_RECURSE faultline_sample_files CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/resources/samples/bundle-48213/*)
file(GLOB_RECURSE faultline_rule_files CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/rules/*.yaml)
add_custom_command(
  OUTPUT ${FAULTLINE_SCREENSHOT}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/screenshots
  COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen FAULTLINE_RULES=${PROJECT_SOURCE_DIR}/rules
          XDG_CONFIG_HOME=${CMAKE_BINARY_DIR}/screenshots/config $<TARGET_FILE:faultline>
          --screenshot ${FAULTLINE_SCREENSHOT} ${PROJECT_SOURCE_DIR}/resources/samples/bundle-48213
  DEPENDS faultline ${faultline_sample_files} ${faultline_rule_files}
  COMMENT "AppStream screenshot of the workbench on the sample incident"
  VERBATIM)
add_custom_target(faultline_screenshot ALL DEPENDS ${FAULTLINE_SCREENSHOT})
install(FILES ${FAULTLINE_SCREENSHOT} DESTINATION ${CMAKE_INSTALL_DATADIR}/faultline/screenshots)

install(PROGRAMS ${FAULTLINE_COLLECT} DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${CMAKE_CURRENT_LIST_DIR}/completion/faultline-cli.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME faultline-cli)
install(FILES ${CMAKE_CURRENT_LIST_DIR}/completion/faultline.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME faultline)
install(FILES ${CMAKE_CURRENT_LIST_DIR}/copyright DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/faultline)
install(FILES ${CMAKE_CURRENT_LIST_DIR}/collect/HOWTO.md DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/faultline RENAME how-to-collect-a-bundle.md)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/rules/ DESTINATION ${CMAKE_INSTALL_DATADIR}/faultline/rules
        PATTERN ".yamllint" EXCLUDE)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/samples DESTINATION ${CMAKE_INSTALL_DATADIR}/faultline)
install(FILES ${PROJECT_SOURCE_DIR}/resources/schema/verdict.schema.json ${PROJECT_SOURCE_DIR}/resources/schema/rule-trace.schema.json
        DESTINATION ${CMAKE_INSTALL_DATADIR}/faultline/schema)
install(FILES ${CMAKE_CURRENT_LIST_DIR}/linux/dev.faultline.Faultline.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${CMAKE_CURRENT_LIST_DIR}/linux/dev.faultline.Faultline.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
install(FILES ${CMAKE_CURRENT_LIST_DIR}/linux/dev.faultline.Faultline-mime.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages
        RENAME dev.faultline.Faultline.xml)
install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/faultline.svg DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps
        RENAME dev.faultline.Faultline.svg)

set(CPACK_PACKAGE_NAME faultline)
set(CPACK_PACKAGE_VENDOR "Faultline")
set(CPACK_PACKAGE_CONTACT "Faultline developers <dev@faultline.dev>")
set(CPACK_PACKAGE_DESCRIPTION_FILE ${CMAKE_CURRENT_LIST_DIR}/description.txt)
set(CPACK_RESOURCE_FILE_LICENSE ${CMAKE_CURRENT_LIST_DIR}/copyright)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_OUTPUT_FILE_PREFIX packages)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# qt6-qpa-plugins holds the xcb and wayland platform plugins the workbench needs on a desktop (libqt6gui6 only
# recommends it); faultline-collect uses zstd for .tar.zst bundles and ssh for the nodes' logs.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "tzdata, qt6-qpa-plugins")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "zstd, openssh-client")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
include(CPack)
