# Fails when a C++ file of the tree is not formatted as .clang-format says:
#   cmake -DROOT=<checkout> -DCLANG_FORMAT=<clang-format> -P format.cmake
# Mend: clang-format -i on the files it names (scripts/format.sh does the whole tree).
cmake_minimum_required(VERSION 3.20)

file(GLOB_RECURSE files RELATIVE "${ROOT}"
  "${ROOT}/src/*.cpp" "${ROOT}/src/*.hpp" "${ROOT}/include/*.hpp"
  "${ROOT}/tests/*.cpp" "${ROOT}/tests/*.hpp")
list(FILTER files EXCLUDE REGEX "node_modules/")
if(NOT files)
  message(FATAL_ERROR "no C++ files found under ${ROOT}")
endif()
set(unformatted "")
foreach(file IN LISTS files)
  execute_process(COMMAND "${CLANG_FORMAT}" --dry-run --Werror "${file}"
    WORKING_DIRECTORY "${ROOT}" RESULT_VARIABLE status OUTPUT_QUIET ERROR_QUIET)
  if(NOT status EQUAL 0)
    list(APPEND unformatted "${file}")
  endif()
endforeach()
if(unformatted)
  list(LENGTH unformatted n)
  list(JOIN unformatted " " names)
  message(FATAL_ERROR "${n} file(s) not formatted as .clang-format says; run: "
    "${CLANG_FORMAT} -i ${names}")
endif()
list(LENGTH files n)
message(STATUS "format: ${n} files as .clang-format says")
