# Configures the project with pkg-config out of reach, as on Windows with vcpkg and MSVC, into
# BIN: libgit2 must then come from CMake's search path, shared, and with none there the
# configure must fail saying how to give one.
#   cmake -DROOT=<source> -DBIN=<scratch build dir> -P configure_without_pkg_config.cmake
file(REMOVE_RECURSE "${BIN}")
set(common -S "${ROOT}" -DCONTEXT_PACK_TESTS=OFF -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=ON)

execute_process(COMMAND ${CMAKE_COMMAND} ${common} -B "${BIN}/found"
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0 OR NOT out MATCHES "libgit2 1\\.[0-9]+\\.[0-9]+: the system.s, shared; hunks through")
  message(FATAL_ERROR "without pkg-config, the configure did not take a shared libgit2 "
    "(status ${status}):\n${out}\n${err}")
endif()

# Nothing under an empty root: no git2.h and no library.
execute_process(COMMAND ${CMAKE_COMMAND} ${common} -B "${BIN}/missing"
  -DCMAKE_FIND_ROOT_PATH=${BIN}/empty -DCMAKE_FIND_ROOT_PATH_MODE_LIBRARY=ONLY
  -DCMAKE_FIND_ROOT_PATH_MODE_INCLUDE=ONLY
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(status EQUAL 0 OR NOT err MATCHES "No libgit2 1\\.5 or later: pkg-config knows none")
  message(FATAL_ERROR "with no libgit2 anywhere, the configure did not fail saying so "
    "(status ${status}):\n${out}\n${err}")
endif()
file(REMOVE_RECURSE "${BIN}")
