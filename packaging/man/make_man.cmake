# SPDX-License-Identifier: Apache-2.0
# cmake -P make_man.cmake: writes NAME.1.gz from `PROGRAM --help`, run with no display (the workbench then prints its
# help without opening a window). Variables: PROGRAM NAME SUMMARY VERSION DESCRIPTION EXTRA PYTHON GZIP OUT.
foreach(v PROGRAM NAME SUMMARY VERSION DESCRIPTION EXTRA PYTHON GZIP OUT)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "make_man.cmake: ${v} is not set")
  endif()
endforeach()
get_filename_component(dir "${OUT}" DIRECTORY)
file(MAKE_DIRECTORY "${dir}")
execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=DISPLAY --unset=WAYLAND_DISPLAY --unset=QT_QPA_PLATFORM
                        "${PROGRAM}" --help
                OUTPUT_FILE "${dir}/${NAME}.help" ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "make_man.cmake: '${PROGRAM} --help' exited ${rc}: ${err}")
endif()
execute_process(COMMAND "${PYTHON}" "${CMAKE_CURRENT_LIST_DIR}/help_to_man.py" --name "${NAME}" --summary "${SUMMARY}"
                        --version "${VERSION}" --description-file "${DESCRIPTION}" --help-file "${dir}/${NAME}.help"
                        --extra "${EXTRA}" -o "${dir}/${NAME}.1"
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "make_man.cmake: help_to_man.py failed for ${NAME}")
endif()
# -n: no name or time stamp in the archive, so the page is the same byte for byte on every build.
execute_process(COMMAND "${GZIP}" -9nf "${dir}/${NAME}.1" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "make_man.cmake: gzip failed for ${NAME}")
endif()
