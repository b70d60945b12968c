# SPDX-License-Identifier: Apache-2.0
# faultline-cli report --format pdf and --pictures on a saved sample case: faultline-cli (which links no Qt) runs the
# workbench's renderer beside it on the offscreen platform, with no display. The PDF is rendered to PNG with
# pdftoppm: a sensible number of pages, every page A4; its text (pdftotext) has the verdict, the versions and the
# page numbers; its fonts are embedded (pdffonts). A redacted PDF names no node. Markdown links its picture in
# NAME.assets/, HTML carries it inline. Errors: no -o, the case as the target, an unknown format, and a missing
# renderer, which says what to install. The pages land in SHOTS for a person to look at.
include(${CMAKE_CURRENT_LIST_DIR}/cli_common.cmake)

find_program(PDFTOPPM pdftoppm)
find_program(PDFTOTEXT pdftotext)
find_program(PDFFONTS pdffonts)
if(NOT PDFTOPPM OR NOT PDFTOTEXT OR NOT PDFFONTS)
  message(FATAL_ERROR "pdftoppm, pdftotext and pdffonts (Debian: poppler-utils) are needed; packaging/install-deps.sh installs them")
endif()

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(CASE ${WORK}/incident.faultline)
set(ENV{FAULTLINE_AUTHOR} "ci")
# No display and no platform chosen: faultline-cli picks the offscreen one for the renderer.
unset(ENV{DISPLAY})
unset(ENV{WAYLAND_DISPLAY})
unset(ENV{QT_QPA_PLATFORM})

# faultline-cli itself stays Qt-free.
execute_process(COMMAND ldd ${CLI} OUTPUT_VARIABLE libs RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR libs MATCHES "libQt")
  message(FATAL_ERROR "faultline-cli must link no Qt library:\n${libs}")
endif()

expect_exit(0 ${CLI} analyze ${SRC}/resources/samples/bundle-48213 -o ${CASE})
file(SHA256 ${CASE} case_before)

expect_exit(0 ${CLI} report ${CASE} --format pdf -o ${WORK}/report.pdf --rules ${SRC}/rules)
if(NOT LAST_OUT MATCHES "report written to [^\n]*report\\.pdf \\(([0-9]+) page")
  message(FATAL_ERROR "the renderer did not say what it wrote:\n${LAST_OUT}")
endif()
set(said_pages ${CMAKE_MATCH_1})

# The pages as pictures: how many, and each one's size (A4 at 50 dpi is 413 x 585 pixels).
execute_process(COMMAND ${PDFTOPPM} -png -r 50 ${WORK}/report.pdf ${WORK}/page RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pdftoppm cannot render the PDF: ${err}")
endif()
file(GLOB pages ${WORK}/page-*.png)
list(LENGTH pages count)
if(count LESS 2 OR count GREATER 40 OR NOT count EQUAL said_pages)
  message(FATAL_ERROR "the PDF has ${count} page(s) (the renderer said ${said_pages}); expected 2 to 40")
endif()
foreach(page ${pages})
  file(READ ${page} header OFFSET 16 LIMIT 8 HEX)
  string(SUBSTRING ${header} 0 8 w)
  string(SUBSTRING ${header} 8 8 h)
  math(EXPR w "0x${w}")
  math(EXPR h "0x${h}")
  if(w LESS 412 OR w GREATER 414 OR h LESS 584 OR h GREATER 586)
    message(FATAL_ERROR "${page} is ${w} x ${h} pixels at 50 dpi: expected A4 (413 x 585)")
  endif()
endforeach()
if(SHOTS)
  file(MAKE_DIRECTORY ${SHOTS})
  foreach(n 1 2)
    file(COPY_FILE ${WORK}/page-0${n}.png ${SHOTS}/report-pdf-page-${n}.png)
  endforeach()
endif()

execute_process(COMMAND ${PDFTOTEXT} -layout ${WORK}/report.pdf - OUTPUT_VARIABLE text RESULT_VARIABLE rc)
foreach(want "Postmortem: incident\\.faultline" "Outcome: infrastructure_failure — infrastructure/accelerator-fabric"
             "Blamed nodes: node-02" "What the cause explains" "Timeline of the cause" "Evidence trail"
             "nodes/node-02/dmesg\\.txt:70" "Rules: faultline-core" "Engine: Faultline " "page 1 of ${count}"
             "page ${count} of ${count}")
  if(NOT text MATCHES "${want}")
    message(FATAL_ERROR "the PDF's text lacks '${want}':\n${text}")
  endif()
endforeach()
execute_process(COMMAND ${PDFFONTS} ${WORK}/report.pdf OUTPUT_VARIABLE fonts)
if(NOT fonts MATCHES "TrueType" OR fonts MATCHES "Identity-H +no ")
  message(FATAL_ERROR "the PDF's fonts are not all embedded:\n${fonts}")
endif()

# Redacted: the text and the picture's lanes carry the pseudonyms.
expect_exit(0 ${CLI} report ${CASE} --format pdf -o ${WORK}/redacted.pdf --redact default --rules ${SRC}/rules)
execute_process(COMMAND ${PDFTOTEXT} ${WORK}/redacted.pdf - OUTPUT_VARIABLE text)
if(text MATCHES "node-0[1-4]" OR NOT text MATCHES "Blamed nodes: host-b")
  message(FATAL_ERROR "the redacted PDF names a node, or not its pseudonym:\n${text}")
endif()

# Pictures in Markdown (a file beside it, linked relatively) and in HTML (inline).
expect_exit(0 ${CLI} report ${CASE} --pictures -o ${WORK}/report.md --rules ${SRC}/rules)
file(READ ${WORK}/report.md md)
if(NOT md MATCHES "!\\[Timeline of the cause [^\n]*\\]\\(report\\.assets/cause-window\\.png\\)")
  message(FATAL_ERROR "the Markdown report does not link its picture:\n${md}")
endif()
file(READ ${WORK}/report.assets/cause-window.png magic LIMIT 8 HEX)
if(NOT magic STREQUAL "89504e470d0a1a0a")
  message(FATAL_ERROR "report.assets/cause-window.png is not a PNG (${magic})")
endif()
expect_exit(0 ${CLI} report ${CASE} --format html --pictures -o ${WORK}/report.html --rules ${SRC}/rules)
file(READ ${WORK}/report.html page)
if(NOT page MATCHES "<img src=\"data:image/png;base64,iVBORw0KGgo[A-Za-z0-9+/=]+\" width=\"[0-9]+\" height=\"[0-9]+\"")
  message(FATAL_ERROR "the HTML report does not carry its picture inline")
endif()
expect_exit(0 xmllint --html --noout ${WORK}/report.html)

# The workbench binary itself, as the CLI runs it: the format from the file's extension.
expect_exit(0 ${GUI} --export-report ${CASE} -o ${WORK}/direct.pdf --rules ${SRC}/rules)
expect_exit(2 ${GUI} --export-report ${CASE} -o ${WORK}/direct.txt)
expect_output("--format takes md, html or pdf" "an unknown extension")

# Errors: no -o, the case itself, an unknown format; the case is never touched.
expect_exit(2 ${CLI} report ${CASE} --format pdf)
expect_output("a PDF report needs -o FILE" "a PDF without -o")
expect_exit(2 ${CLI} report ${CASE} --format pdf -o ${CASE})
expect_output("refusing to write the report over the case" "a PDF over the case")
expect_exit(2 ${GUI} --export-report ${CASE} -o ${CASE} --format pdf)
expect_output("refusing to write the report over the case" "the renderer asked to write over the case")
expect_exit(2 ${CLI} report ${CASE} --format docx -o ${WORK}/report.docx)
file(SHA256 ${CASE} case_after)
if(NOT case_after STREQUAL case_before)
  message(FATAL_ERROR "the case changed")
endif()

# No renderer beside faultline-cli nor on PATH: it says what to install.
file(MAKE_DIRECTORY ${WORK}/lonely)
file(COPY ${CLI} DESTINATION ${WORK}/lonely)
get_filename_component(cli_name ${CLI} NAME)
set(ENV{PATH} "/usr/bin:/bin")
expect_exit(2 ${WORK}/lonely/${cli_name} report ${CASE} --format pdf -o ${WORK}/none.pdf --rules ${SRC}/rules)
expect_output("Install the faultline package" "a missing renderer")
if(EXISTS ${WORK}/none.pdf)
  message(FATAL_ERROR "a PDF was written without a renderer")
endif()
