# libgit2, as the interface target cp_libgit2, one of two ways (CONTEXT_PACK_LIBGIT2_LINK):
#
#   static  libgit2 1.9 built here at configure time, into <build>/libgit2/, from the source
#           that CONTEXT_PACK_LIBGIT2_SOURCE names (scripts/libgit2-source.sh fetches Debian
#           13's), configured for a tool that reads a local repository: no HTTPS, SSH, GSSAPI
#           or NTLM, so nothing is set up for the network at start and no TLS, ssh or Kerberos
#           library is linked; threads on; SHA-1 with collision detection and SHA-256 built in;
#           regular expressions from the C library (PCRE2 on Windows); http-parser's archive
#           (libgit2 needs a parser to build, though nothing here speaks HTTP); the system's
#           zlib. Our patches (patches/libgit2/) are applied to a copy of the source: mutexes
#           that spin briefly before they sleep, and whole objects inflated by libdeflate where
#           libdeflate is found (CONTEXT_PACK_FAST_INFLATE). Hunks then come from xdiff called
#           directly (src/git/xdiff_hunks.c, compiled against xdiff's header in that source).
#           The build is redone only when its key changes: the source's version, the patches,
#           the compiler and the options.
#   shared  the system's libgit2 1.5 to 1.9, found by pkg-config (else on CMake's search path),
#           as every distribution ships it; hunks through its public git_diff_buffers.
#   auto    static where CONTEXT_PACK_LIBGIT2_SOURCE is given, else shared.
#
# Either way CP_DIRECT_XDIFF says whether hunks come from xdiff directly (the generated
# context_pack/git/build_config.hpp tells the code), and libgit2's headers are system headers, so
# that -Werror applies to our code only.
include_guard(GLOBAL)

set(CONTEXT_PACK_LIBGIT2_SOURCE "" CACHE PATH
  "A libgit2 1.9 source tree to build statically (scripts/libgit2-source.sh prints Debian 13's)")
set(CONTEXT_PACK_LIBGIT2_LINK auto CACHE STRING
  "How to take libgit2: static (built from CONTEXT_PACK_LIBGIT2_SOURCE), shared (the system's) or auto")
set_property(CACHE CONTEXT_PACK_LIBGIT2_LINK PROPERTY STRINGS auto static shared)
option(CONTEXT_PACK_FAST_INFLATE
  "With the libgit2 built here, inflate whole objects with libdeflate where it is found" ON)
if(NOT CONTEXT_PACK_LIBGIT2_LINK MATCHES "^(auto|static|shared)$")
  message(FATAL_ERROR
    "CONTEXT_PACK_LIBGIT2_LINK is '${CONTEXT_PACK_LIBGIT2_LINK}': give auto, static or shared")
endif()
set(CP_LIBGIT2_STATIC OFF)
if(CONTEXT_PACK_LIBGIT2_LINK STREQUAL "static" OR
   (CONTEXT_PACK_LIBGIT2_LINK STREQUAL "auto" AND CONTEXT_PACK_LIBGIT2_SOURCE))
  set(CP_LIBGIT2_STATIC ON)
endif()
find_package(Threads REQUIRED)
add_library(cp_libgit2 INTERFACE)
set(CP_DIRECT_XDIFF OFF)
set(CP_FAST_INFLATE OFF)

# The static library of `name` where there is one, else its shared library, into `out`;
# FATAL_ERROR with `package` (the Debian package that has it) when there is neither.
function(cp_find_archive out name package)
  find_library(CP_ARCHIVE_${name} NAMES lib${name}.a ${name})
  if(NOT CP_ARCHIVE_${name})
    message(FATAL_ERROR "The libgit2 built here needs ${name}'s library: install ${package}")
  endif()
  set(${out} ${CP_ARCHIVE_${name}} PARENT_SCOPE)
endfunction()

# libgit2 built from CONTEXT_PACK_LIBGIT2_SOURCE into <build>/libgit2/: sets CP_LIBGIT2_DIR
# (src: the patched copy, build, install) and LIBGIT2_VERSION in the caller's scope.
function(cp_build_libgit2)
  set(source ${CONTEXT_PACK_LIBGIT2_SOURCE})
  if(NOT source)
    message(FATAL_ERROR "CONTEXT_PACK_LIBGIT2_LINK=static builds libgit2 from a source tree: "
      "give -DCONTEXT_PACK_LIBGIT2_SOURCE=\"$(scripts/libgit2-source.sh)\"")
  endif()
  get_filename_component(source "${source}" ABSOLUTE)
  if(NOT EXISTS "${source}/include/git2/version.h" OR NOT EXISTS "${source}/deps/xdiff/xdiff.h")
    message(FATAL_ERROR "CONTEXT_PACK_LIBGIT2_SOURCE=${source} holds no libgit2 source with "
      "its xdiff (include/git2/version.h, deps/xdiff/xdiff.h): give the directory that "
      "scripts/libgit2-source.sh prints")
  endif()
  file(STRINGS "${source}/include/git2/version.h" line REGEX "^#define LIBGIT2_VERSION +\"")
  string(REGEX MATCH "[0-9]+\\.[0-9]+\\.[0-9]+" version "${line}")
  if(NOT version MATCHES "^1\\.9\\.")
    message(FATAL_ERROR "CONTEXT_PACK_LIBGIT2_SOURCE=${source} is libgit2 '${version}': "
      "the build and patches/libgit2/ are written for 1.9 (scripts/libgit2-source.sh)")
  endif()

  set(options -DBUILD_SHARED_LIBS=OFF -DBUILD_TESTS=OFF -DBUILD_CLI=OFF -DBUILD_EXAMPLES=OFF
    -DBUILD_FUZZERS=OFF -DUSE_HTTPS=OFF -DUSE_SSH=OFF -DUSE_GSSAPI=OFF -DUSE_NTLMCLIENT=OFF
    -DUSE_THREADS=ON -DUSE_NSEC=ON -DUSE_SHA1=CollisionDetection -DUSE_SHA256=Builtin
    -DUSE_HTTP_PARSER=http-parser -DUSE_BUNDLED_ZLIB=OFF -DUSE_ICONV=OFF
    -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DCMAKE_INSTALL_LIBDIR=lib -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_C_COMPILER=${CMAKE_C_COMPILER})
  set(c_flags "${CMAKE_C_FLAGS}")
  if(WIN32)
    # PCRE2 from the cross build's prefix, linked statically (its symbols not dllimport'ed).
    list(APPEND options -DREGEX_BACKEND=pcre2 -DUSE_WINHTTP=OFF -DSTATIC_CRT=OFF)
    string(APPEND c_flags " -DPCRE2_STATIC")
  else()
    list(APPEND options -DREGEX_BACKEND=regcomp)
  endif()
  if(CP_FAST_INFLATE)
    string(APPEND c_flags " -DGIT_LIBDEFLATE -I${CP_LIBDEFLATE_INCLUDE_DIR}")
  endif()
  list(APPEND options "-DCMAKE_C_FLAGS=${c_flags}")
  foreach(passed CMAKE_TOOLCHAIN_FILE CMAKE_PREFIX_PATH CMAKE_C_COMPILER_LAUNCHER)
    if(${passed})
      list(APPEND options "-D${passed}=${${passed}}")
    endif()
  endforeach()

  file(GLOB patches "${PROJECT_SOURCE_DIR}/patches/libgit2/*.patch")
  list(SORT patches)
  set(key "${version};${CMAKE_C_COMPILER_ID};${CMAKE_C_COMPILER_VERSION};${options}")
  foreach(file IN LISTS patches ITEMS "${source}/debian-version" "${CMAKE_TOOLCHAIN_FILE}")
    if(EXISTS "${file}" AND NOT IS_DIRECTORY "${file}")
      file(SHA256 "${file}" sum)
      string(APPEND key ";${sum}")
    endif()
  endforeach()
  string(SHA256 key "${key}")
  string(SUBSTRING "${key}" 0 16 key)

  set(dir ${CMAKE_BINARY_DIR}/libgit2)
  set(CP_LIBGIT2_DIR ${dir} PARENT_SCOPE)
  set(LIBGIT2_VERSION ${version} PARENT_SCOPE)
  if(EXISTS "${dir}/install/built-${key}")
    return()
  endif()
  message(NOTICE "Building libgit2 ${version} from ${source} into ${dir} (once for this key, "
    "${key}: about a minute)")
  string(TIMESTAMP started "%s")
  file(REMOVE_RECURSE "${dir}")
  file(MAKE_DIRECTORY "${dir}")
  file(COPY "${source}/" DESTINATION "${dir}/src" PATTERN ".complete" EXCLUDE)
  find_program(CP_PATCH patch)
  if(NOT CP_PATCH)
    message(FATAL_ERROR "No patch program to apply patches/libgit2/: install patch")
  endif()
  foreach(patch IN LISTS patches)
    execute_process(COMMAND ${CP_PATCH} -p1 --forward --batch --input=${patch}
      WORKING_DIRECTORY "${dir}/src" RESULT_VARIABLE failed OUTPUT_VARIABLE said ERROR_VARIABLE said)
    if(failed)
      message(FATAL_ERROR "${patch} does not apply to libgit2 ${version} (${source}):\n${said}")
    endif()
  endforeach()
  foreach(step IN ITEMS configure build install)
    if(step STREQUAL "configure")
      set(command ${CMAKE_COMMAND} -S "${dir}/src" -B "${dir}/build" ${options}
        "-DCMAKE_INSTALL_PREFIX=${dir}/install")
      if(CMAKE_GENERATOR)
        list(APPEND command -G "${CMAKE_GENERATOR}")
      endif()
    elseif(step STREQUAL "build")
      cmake_host_system_information(RESULT cores QUERY NUMBER_OF_LOGICAL_CORES)
      set(command ${CMAKE_COMMAND} --build "${dir}/build" --parallel ${cores})
    else()
      set(command ${CMAKE_COMMAND} --install "${dir}/build")
    endif()
    execute_process(COMMAND ${command} RESULT_VARIABLE failed
      OUTPUT_FILE "${dir}/${step}.log" ERROR_FILE "${dir}/${step}.log")
    if(failed)
      file(READ "${dir}/${step}.log" said)
      string(LENGTH "${said}" length)
      if(length GREATER 6000)
        math(EXPR from "${length} - 6000")
        string(SUBSTRING "${said}" ${from} -1 said)
      endif()
      message(FATAL_ERROR "libgit2 ${version}: the ${step} step failed (${dir}/${step}.log):\n${said}")
    endif()
  endforeach()
  file(TOUCH "${dir}/install/built-${key}")
  string(TIMESTAMP ended "%s")
  math(EXPR took "${ended} - ${started}")
  message(NOTICE "Built libgit2 ${version} in ${took} s")
endfunction()

if(CP_LIBGIT2_STATIC)
  enable_language(C)
  find_path(CP_LIBDEFLATE_INCLUDE_DIR libdeflate.h)
  if(CONTEXT_PACK_FAST_INFLATE AND CP_LIBDEFLATE_INCLUDE_DIR AND NOT WIN32)
    set(CP_FAST_INFLATE ON)
  endif()
  cp_build_libgit2()
  set(CP_DIRECT_XDIFF ON)
  set(install ${CP_LIBGIT2_DIR}/install)
  target_include_directories(cp_libgit2 SYSTEM INTERFACE ${install}/include)
  # What libgit2.a calls, as it was configured above. With CONTEXT_PACK_STATIC_RUNTIME (the
  # build from source) and on Windows (an .exe that runs alone), zlib and libdeflate are
  # linked in from their archives; else (the Debian package) they stay the system's shared
  # libraries.
  set(CP_ZLIB_ARCHIVE OFF)
  if(CONTEXT_PACK_STATIC_RUNTIME OR WIN32)
    set(CP_ZLIB_ARCHIVE ON)
  endif()
  cp_find_archive(http_parser http_parser libhttp-parser-dev)
  set(libraries ${install}/lib/libgit2.a ${http_parser})
  if(WIN32)
    cp_find_archive(pcre2 pcre2-8 "PCRE2 (scripts/windows-build.sh builds it)")
    list(APPEND libraries ${pcre2})
  endif()
  if(CP_ZLIB_ARCHIVE)
    cp_find_archive(zlib z zlib1g-dev)
    list(APPEND libraries ${zlib})
  else()
    find_package(ZLIB REQUIRED)
    list(APPEND libraries ZLIB::ZLIB)
  endif()
  if(CP_FAST_INFLATE)
    if(CONTEXT_PACK_STATIC_RUNTIME)
      cp_find_archive(deflate deflate libdeflate-dev)
    else()
      find_library(deflate NAMES deflate REQUIRED)
    endif()
    list(APPEND libraries ${deflate})
  endif()
  if(WIN32)
    list(APPEND libraries ws2_32 secur32 crypt32 rpcrt4 ole32 advapi32)
  endif()
  target_link_libraries(cp_libgit2 INTERFACE ${libraries} Threads::Threads ${CMAKE_DL_LIBS})

  # The direct xdiff call: a C file that includes xdiff's own header, with the include
  # directories libgit2 compiles xdiff with (its features header is generated in its build).
  add_library(cp_xdiff STATIC ${PROJECT_SOURCE_DIR}/src/git/xdiff_hunks.c)
  target_include_directories(cp_xdiff SYSTEM PRIVATE ${CP_LIBGIT2_DIR}/src/deps/xdiff
    ${CP_LIBGIT2_DIR}/src/src/util ${CP_LIBGIT2_DIR}/build/src/util ${install}/include)
  if(WIN32)  # xdiff's header includes libgit2's regex header, PCRE2's there
    find_path(CP_PCRE2_INCLUDE_DIR pcre2.h REQUIRED)
    target_include_directories(cp_xdiff SYSTEM PRIVATE ${CP_PCRE2_INCLUDE_DIR})
    target_compile_definitions(cp_xdiff PRIVATE PCRE2_STATIC)
  endif()
  target_link_libraries(cp_libgit2 INTERFACE cp_xdiff)
  set(_cp_linked "built here, static (${CP_LIBGIT2_DIR})")
  if(CP_FAST_INFLATE)
    string(APPEND _cp_linked ", whole objects inflated by libdeflate")
  endif()
else()
  find_package(PkgConfig)
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(LIBGIT2 libgit2>=1.5)
  endif()
  # Without pkg-config (vcpkg with MSVC), or where it knows no libgit2: git2.h and the library
  # on CMake's search path (a toolchain file's, CMAKE_PREFIX_PATH), with the version from
  # git2/version.h.
  if(NOT LIBGIT2_FOUND)
    find_path(CP_LIBGIT2_INCLUDE_DIR NAMES git2.h)
    find_library(CP_LIBGIT2_LIBRARY NAMES git2 libgit2)
    if(NOT CP_LIBGIT2_INCLUDE_DIR OR NOT CP_LIBGIT2_LIBRARY)
      message(FATAL_ERROR "No libgit2 1.5 or later: pkg-config knows none (install libgit2-dev, "
        "or brew install libgit2 pkg-config), and CMake's search path has no git2.h and git2 "
        "library (give -DCMAKE_PREFIX_PATH=<libgit2's prefix> or vcpkg's toolchain file)")
    endif()
    file(STRINGS "${CP_LIBGIT2_INCLUDE_DIR}/git2/version.h" _cp_version_line
      REGEX "^#define LIBGIT2_VERSION +\"[0-9.]+")
    string(REGEX MATCH "[0-9]+\\.[0-9]+\\.[0-9]+" LIBGIT2_VERSION "${_cp_version_line}")
    if(NOT LIBGIT2_VERSION OR LIBGIT2_VERSION VERSION_LESS 1.5)
      message(FATAL_ERROR "libgit2 '${LIBGIT2_VERSION}' in ${CP_LIBGIT2_INCLUDE_DIR}: "
        "context-pack needs 1.5 or later")
    endif()
    set(LIBGIT2_INCLUDE_DIRS ${CP_LIBGIT2_INCLUDE_DIR})
    set(LIBGIT2_LINK_LIBRARIES ${CP_LIBGIT2_LIBRARY})
  endif()
  if(LIBGIT2_VERSION VERSION_GREATER_EQUAL 1.10)
    message(WARNING "libgit2 ${LIBGIT2_VERSION}: context-pack is tested with libgit2 1.5 to 1.9")
  endif()
  target_include_directories(cp_libgit2 SYSTEM INTERFACE ${LIBGIT2_INCLUDE_DIRS})
  target_compile_options(cp_libgit2 INTERFACE ${LIBGIT2_CFLAGS_OTHER})
  target_link_libraries(cp_libgit2 INTERFACE ${LIBGIT2_LINK_LIBRARIES} Threads::Threads)
  target_link_options(cp_libgit2 INTERFACE ${LIBGIT2_LDFLAGS_OTHER})
  set(_cp_linked "the system's, shared")
endif()

# zlib, which src/git/object_store.cpp calls itself to read loose objects, as the interface
# target cp_zlib: the archive the static libgit2 is linked with, else the system's.
add_library(cp_zlib INTERFACE)
if(CP_LIBGIT2_STATIC AND CP_ZLIB_ARCHIVE)
  target_link_libraries(cp_zlib INTERFACE ${CP_ARCHIVE_z})
else()
  find_package(ZLIB REQUIRED)
  target_link_libraries(cp_zlib INTERFACE ZLIB::ZLIB)
endif()

# The libgit2 built here carries patches/libgit2/: among them, the work tree's .gitattributes
# and .gitignore symlinks read as absent, as git reads them (CONTEXT_PACK_TREE_SYMLINKS_IGNORED).
if(CP_DIRECT_XDIFF)
  set(CP_DIRECT_XDIFF_01 1)
  set(_cp_hunks "xdiff called directly")
else()
  set(CP_DIRECT_XDIFF_01 0)
  set(_cp_hunks "libgit2's git_diff_buffers")
endif()
message(STATUS "libgit2 ${LIBGIT2_VERSION}: ${_cp_linked}; hunks through ${_cp_hunks}")
