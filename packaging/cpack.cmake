# SPDX-License-Identifier: Apache-2.0
# Install layout and packages (DEB, TGZ). `cmake --build --preset release --target package` writes them to
# build/release/packages/.
include(GNUInstallDirs)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/rules/ DESTINATION ${CMAKE_INSTALL_DATADIR}/faultline/rules
        PATTERN ".yamllint" EXCLUDE)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/samples DESTINATION ${CMAKE_INSTALL_DATADIR}/faultline)
install(FILES ${PROJECT_SOURCE_DIR}/resources/schema/verdict.schema.json DESTINATION ${CMAKE_INSTALL_DATADIR}/faultline/schema)
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
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_OUTPUT_FILE_PREFIX packages)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "tzdata")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
include(CPack)
