# libgit2 1.5 to 1.9, found by pkg-config (else on CMake's search path), as the interface
# target cp_libgit2.
#
# CONTEXT_PACK_LIBGIT2_LINK says how it is linked:
#   static  libgit2.a and its dependencies' archives (Debian's libgit2-dev installs them all
#           but GSSAPI's, which stays shared): loading libgit2.so and the 22 shared libraries
#           it pulls in took a third of a 3 ms start (docs/performance.md).
#   shared  libgit2.so, as every distribution ships it.
#   auto    static where those archives are present and link, else shared.
#
# Two fast paths need the static archive, and each is taken only where it applies:
#   CP_DIRECT_XDIFF     src/git/hunks.cpp calls libgit2's bundled xdl_diff itself, with
#                       xdiff's structs declared there; xdiff.h is the same from libgit2 1.5 to
#                       1.9, and the symbol is reachable only in the archive (libgit2.so does
#                       not export it). Elsewhere hunks come through git_diff_buffers.
#   CP_NO_GSSAPI        GSSAPI (HTTP Negotiate authentication, which a tool without remotes
#                       never reaches) comes from src/git/no_gssapi.cpp instead of the Kerberos
#                       libraries, whose loading cost 1.5 ms of every start: where libgit2.a
#                       names no more of it than that file answers, and the link still works.
#   CP_NO_SSH           libssh2 (ssh:// remotes, which a tool without remotes never reaches)
#                       comes from src/git/no_ssh.cpp instead of libssh2's archive and the
#                       OpenSSL archives it needs, whose tables were relocated and whose
#                       set-up ran at every start (about 1 ms): where libgit2.a names no more
#                       of libssh2 than that file answers, and the link still works.
#   CP_NO_TLS_INIT      the link wraps libgit2's mbedTLS set-up (the entropy pool, the CA
#   CP_NO_SSH_INIT      bundle) and libssh2's init (which initialises OpenSSL), which a tool
#                       without remotes never uses (src/git/libgit2.cpp): where libgit2.a is
#                       built with mbedTLS, or with libssh2, and a program so wrapped links. A
#                       wrap reaches libgit2.a's references, never one inside libgit2.so.
#   CP_FAST_INFLATE     the link wraps zlib's inflate, which src/git/inflate.cpp offers to
#                       libdeflate first: where libdeflate.a and its header are found
#                       (Debian's libdeflate-dev) and CONTEXT_PACK_FAST_INFLATE is on.
#   CP_SPIN_LOCKS       the link wraps pthread_mutex_lock, which src/git/spin_locks.cpp makes
#                       spin a little before it sleeps (libgit2's pack locks, which the pool's
#                       threads share): where the C library is glibc, the wrapped program
#                       links, and CONTEXT_PACK_SPIN_LOCKS is on.
# They become compile definitions of cp_libgit2 (CONTEXT_PACK_DIRECT_XDIFF,
# CONTEXT_PACK_NO_TLS_INIT, CONTEXT_PACK_NO_SSH_INIT, CONTEXT_PACK_FAST_INFLATE and
# CONTEXT_PACK_SPIN_LOCKS, 0 or 1). libgit2's headers are system headers, so that -Werror
# applies to our code only.
include_guard(GLOBAL)
include(CheckCXXSourceCompiles)
include(CMakePushCheckState)

option(CONTEXT_PACK_FAST_INFLATE
  "With the static libgit2, offer zlib's inflate to libdeflate first, where it is found" ON)
option(CONTEXT_PACK_SPIN_LOCKS
  "With the static libgit2 and glibc, let a held mutex be waited for briefly before sleeping" ON)
set(CONTEXT_PACK_LIBGIT2_LINK auto CACHE STRING
  "How to link libgit2: auto (static where its archives are present), static or shared")
set_property(CACHE CONTEXT_PACK_LIBGIT2_LINK PROPERTY STRINGS auto static shared)
if(NOT CONTEXT_PACK_LIBGIT2_LINK MATCHES "^(auto|static|shared)$")
  message(FATAL_ERROR
    "CONTEXT_PACK_LIBGIT2_LINK is '${CONTEXT_PACK_LIBGIT2_LINK}': give auto, static or shared")
endif()

find_package(Threads REQUIRED)
find_package(PkgConfig)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(LIBGIT2 libgit2>=1.5)
endif()
# Without pkg-config (vcpkg with MSVC), or where it knows no libgit2: git2.h and the library
# on CMake's search path (a toolchain file's, CMAKE_PREFIX_PATH), linked as shared, with the
# version from git2/version.h.
if(NOT LIBGIT2_FOUND)
  find_path(CP_LIBGIT2_INCLUDE_DIR NAMES git2.h)
  find_library(CP_LIBGIT2_LIBRARY NAMES git2 libgit2)
  if(NOT CP_LIBGIT2_INCLUDE_DIR OR NOT CP_LIBGIT2_LIBRARY)
    message(FATAL_ERROR "No libgit2 1.5 or later: pkg-config knows none (install libgit2-dev, or "
      "brew install libgit2 pkg-config), and CMake's search path has no git2.h and git2 library "
      "(give -DCMAKE_PREFIX_PATH=<libgit2's prefix> or vcpkg's toolchain file)")
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
  set(LIBGIT2_CFLAGS_OTHER "")
  set(LIBGIT2_LDFLAGS_OTHER "")
  set(CP_LIBGIT2_NO_PKG_CONFIG ON)
  if(CONTEXT_PACK_LIBGIT2_LINK STREQUAL "static")
    message(FATAL_ERROR "CONTEXT_PACK_LIBGIT2_LINK=static needs pkg-config, which names "
      "libgit2.a's dependencies")
  endif()
endif()
if(LIBGIT2_VERSION VERSION_GREATER_EQUAL 1.10)
  message(WARNING "libgit2 ${LIBGIT2_VERSION}: context-pack is tested with libgit2 1.5 to 1.9; "
    "hunks come through libgit2's public API")
endif()

# The archives and libraries of a static libgit2, in link order, into `out` (empty when
# libgit2.a is not there). The names come from pkg-config --static, each followed by the static
# libraries of its own pkg-config module where it has one (Debian names -lssh2 rather than
# libssh2, whose OpenSSL libcrypto it then needs), then whatever else libgit2.so was linked
# with (Debian's libgit2.pc leaves out GSSAPI). Each name is its archive where there is one,
# else its shared library; a name with neither is left out, and the link check below tells
# whether anything was missing.
function(cp_libgit2_static_libraries out)
  set(${out} "" PARENT_SCOPE)
  find_library(CP_LIBGIT2_ARCHIVE NAMES libgit2.a
    HINTS ${LIBGIT2_STATIC_LIBRARY_DIRS} ${LIBGIT2_LIBRARY_DIRS})
  if(NOT CP_LIBGIT2_ARCHIVE)
    return()
  endif()
  set(names "")
  foreach(name IN LISTS LIBGIT2_STATIC_LIBRARIES)
    list(APPEND names ${name})
    if(NOT name STREQUAL "git2")
      pkg_check_modules(CP_DEP_${name} QUIET lib${name})
      if(CP_DEP_${name}_FOUND)
        list(APPEND names ${CP_DEP_${name}_STATIC_LIBRARIES})
      endif()
    endif()
  endforeach()
  # A name listed twice stays at its last place, after everything that may need it.
  list(REVERSE names)
  list(REMOVE_DUPLICATES names)
  list(REVERSE names)
  set(sonames "")
  find_library(CP_LIBGIT2_SHARED NAMES git2 HINTS ${LIBGIT2_LIBRARY_DIRS})
  if(CP_LIBGIT2_SHARED AND CMAKE_OBJDUMP AND NOT CP_LIBGIT2_SHARED STREQUAL CP_LIBGIT2_ARCHIVE)
    execute_process(COMMAND ${CMAKE_OBJDUMP} -p ${CP_LIBGIT2_SHARED}
      OUTPUT_VARIABLE dynamic ERROR_QUIET)
    string(REGEX MATCHALL "NEEDED +lib[^ \n]+\\.so[^ \n]*" needed "${dynamic}")
    foreach(entry IN LISTS needed)
      string(REGEX REPLACE "NEEDED +" "" soname "${entry}")
      string(REGEX REPLACE "^lib(.+)\\.so.*$" "\\1" name "${soname}")
      if(NOT name IN_LIST names)
        list(APPEND names ${name})
        set(soname_${name} ${soname})
      endif()
    endforeach()
  endif()
  set(libraries ${CP_LIBGIT2_ARCHIVE})
  foreach(name IN LISTS names)
    if(name STREQUAL "git2")
      continue()
    elseif(name MATCHES "^(c|m|rt|dl|pthread)$")  # the C library's own: as the system has them
      list(APPEND libraries ${name})
      continue()
    endif()
    find_library(CP_LIB_${name} NAMES lib${name}.a ${name} ${soname_${name}}
      HINTS ${LIBGIT2_STATIC_LIBRARY_DIRS})
    if(CP_LIB_${name})
      list(APPEND libraries ${CP_LIB_${name}})
    else()
      message(STATUS "libgit2's dependency ${name}: no archive and no shared library, left out")
    endif()
  endforeach()
  # On Windows, the system libraries libgit2 calls, which its libgit2.pc does not name.
  if(WIN32)
    list(APPEND libraries ws2_32 secur32 crypt32 rpcrt4 ole32 advapi32)
  endif()
  set(${out} ${libraries} PARENT_SCOPE)
endfunction()

# Whether `source` links against `libraries` (a check run at every configure, not cached), with
# the link options given after them, and CP_CHECK_INCLUDES beside libgit2's headers.
function(cp_libgit2_links result source libraries)
  cmake_push_check_state(RESET)
  set(CMAKE_REQUIRED_QUIET ON)
  set(CMAKE_REQUIRED_LINK_OPTIONS ${ARGN})
  set(CMAKE_REQUIRED_INCLUDES ${LIBGIT2_INCLUDE_DIRS} ${CP_CHECK_INCLUDES})
  set(CMAKE_REQUIRED_LIBRARIES ${libraries} Threads::Threads ${CMAKE_DL_LIBS})
  unset(${result} CACHE)
  check_cxx_source_compiles("${source}" ${result})
  set(${result} ${${result}} PARENT_SCOPE)
  unset(${result} CACHE)
  cmake_pop_check_state()
endfunction()

# libgit2.a linked without the archives of CP_LIBGIT2_STATIC_LINK that `pattern` matches, the
# names it needs of them answered by `shim` (src/git/no_*.cpp) instead, where that links:
# `result` ON, those archives dropped from CP_LIBGIT2_STATIC_LINK, and the shim built as the
# library `target`. `taken`: the source of the shims already taken, which the check needs too.
function(cp_libgit2_shim result target pattern shim taken)
  set(${result} OFF PARENT_SCOPE)
  set(without ${CP_LIBGIT2_STATIC_LINK})
  list(FILTER without EXCLUDE REGEX "${pattern}")
  if(without STREQUAL CP_LIBGIT2_STATIC_LINK)
    return()
  endif()
  file(READ ${shim} source)
  cp_libgit2_links(links
    "${taken}\n${source}\n#include <git2.h>\nint main() { return git_libgit2_init() < 0; }"
    "${without}")
  if(links)
    set(${result} ON PARENT_SCOPE)
    set(CP_LIBGIT2_STATIC_LINK ${without} PARENT_SCOPE)
    add_library(${target} STATIC ${shim})
    target_link_libraries(${target} PRIVATE cp_warnings)
  endif()
endfunction()

set(CP_LIBGIT2_STATIC OFF)
if(NOT CONTEXT_PACK_LIBGIT2_LINK STREQUAL "shared" AND NOT CP_LIBGIT2_NO_PKG_CONFIG)
  cp_libgit2_static_libraries(CP_LIBGIT2_STATIC_LINK)
  if(CP_LIBGIT2_STATIC_LINK)
    cp_libgit2_links(CP_LIBGIT2_STATIC_LINKS
      "#include <git2.h>\nint main() { return git_libgit2_init() < 0; }" "${CP_LIBGIT2_STATIC_LINK}")
  endif()
  if(CP_LIBGIT2_STATIC_LINKS)
    set(CP_LIBGIT2_STATIC ON)
  elseif(CONTEXT_PACK_LIBGIT2_LINK STREQUAL "static")
    if(NOT CP_LIBGIT2_STATIC_LINK)
      message(FATAL_ERROR "CONTEXT_PACK_LIBGIT2_LINK=static: no libgit2.a beside libgit2 "
        "${LIBGIT2_VERSION} (${LIBGIT2_LIBRARY_DIRS})")
    endif()
    message(FATAL_ERROR "CONTEXT_PACK_LIBGIT2_LINK=static: a program does not link against "
      "${CP_LIBGIT2_STATIC_LINK} (CMakeFiles/CMakeConfigureLog.yaml says why)")
  endif()
endif()

set(CP_DIRECT_XDIFF OFF)
set(CP_NO_TLS_INIT OFF)
set(CP_NO_SSH_INIT OFF)
set(CP_FAST_INFLATE OFF)
set(CP_SPIN_LOCKS OFF)
add_library(cp_libgit2 INTERFACE)
target_include_directories(cp_libgit2 SYSTEM INTERFACE ${LIBGIT2_INCLUDE_DIRS})
target_compile_options(cp_libgit2 INTERFACE ${LIBGIT2_CFLAGS_OTHER})
if(CP_LIBGIT2_STATIC)
  set(_cp_linked "static (${CP_LIBGIT2_ARCHIVE})")
  if(LIBGIT2_VERSION VERSION_LESS 1.10)
    cp_libgit2_links(CP_LIBGIT2_HAS_XDL_DIFF
      "extern \"C\" int xdl_diff(void*, void*, const void*, const void*, void*);
       int main(int argc, char**) { return argc > 5 ? xdl_diff(0, 0, 0, 0, 0) : 0; }"
      "${CP_LIBGIT2_STATIC_LINK}")
    set(CP_DIRECT_XDIFF ${CP_LIBGIT2_HAS_XDL_DIFF})
  endif()
  # The network set-ups skipped where the archives hold them and the linker wraps (GNU ld's
  # --wrap; not Apple's ld).
  set(_cp_tls_wrap -Wl,--wrap=git_mbedtls_stream_global_init
    -Wl,--wrap=git_mbedtls_stream_new -Wl,--wrap=git_mbedtls_stream_wrap)
  set(_cp_ssh_wrap -Wl,--wrap=libssh2_init)
  if(CP_LIBGIT2_STATIC_LINK MATCHES "mbedtls")
    cp_libgit2_links(CP_LIBGIT2_LINKS_NO_TLS_INIT
      "#include <git2.h>
       extern \"C\" int __wrap_git_mbedtls_stream_global_init(void) { return 0; }
       extern \"C\" int __wrap_git_mbedtls_stream_new(void**, const char*, const char*) { return -1; }
       extern \"C\" int __wrap_git_mbedtls_stream_wrap(void**, void*, const char*) { return -1; }
       int main() { return git_libgit2_init() < 0; }"
      "${CP_LIBGIT2_STATIC_LINK}" ${_cp_tls_wrap})
    set(CP_NO_TLS_INIT ${CP_LIBGIT2_LINKS_NO_TLS_INIT})
  endif()
  if(CP_LIBGIT2_STATIC_LINK MATCHES "ssh2")
    cp_libgit2_links(CP_LIBGIT2_LINKS_NO_SSH_INIT
      "#include <git2.h>
       extern \"C\" int __wrap_libssh2_init(int) { return 0; }
       int main() { return git_libgit2_init() < 0; }"
      "${CP_LIBGIT2_STATIC_LINK}" ${_cp_ssh_wrap})
    set(CP_NO_SSH_INIT ${CP_LIBGIT2_LINKS_NO_SSH_INIT})
  endif()
  # zlib's inflate offered to libdeflate first (src/git/inflate.cpp), where its archive is
  # found and a program so wrapped links.
  find_path(CP_LIBDEFLATE_INCLUDE_DIR libdeflate.h)
  find_library(CP_LIBDEFLATE_ARCHIVE NAMES libdeflate.a)
  set(_cp_inflate_wrap -Wl,--wrap=inflate)
  if(CONTEXT_PACK_FAST_INFLATE AND CP_LIBDEFLATE_INCLUDE_DIR AND CP_LIBDEFLATE_ARCHIVE)
    set(CP_CHECK_INCLUDES ${CP_LIBDEFLATE_INCLUDE_DIR})
    cp_libgit2_links(CP_LIBGIT2_LINKS_FAST_INFLATE
      "#include <git2.h>
       #include <libdeflate.h>
       #include <zlib.h>
       extern \"C\" int __real_inflate(z_streamp, int);
       extern \"C\" int __wrap_inflate(z_streamp s, int f) {
         libdeflate_free_decompressor(libdeflate_alloc_decompressor());
         return __real_inflate(s, f);
       }
       int main() { return git_libgit2_init() < 0; }"
      "${CP_LIBGIT2_STATIC_LINK};${CP_LIBDEFLATE_ARCHIVE}" ${_cp_inflate_wrap})
    unset(CP_CHECK_INCLUDES)
    set(CP_FAST_INFLATE ${CP_LIBGIT2_LINKS_FAST_INFLATE})
  endif()
  # pthread_mutex_lock spinning before it sleeps (src/git/spin_locks.cpp), where the C
  # library's mutex is glibc's and a program so wrapped links.
  set(_cp_lock_wrap -Wl,--wrap=pthread_mutex_lock)
  if(CONTEXT_PACK_SPIN_LOCKS)
    cp_libgit2_links(CP_LIBGIT2_LINKS_SPIN_LOCKS
      "#include <git2.h>
       #include <pthread.h>
       extern \"C\" int __real_pthread_mutex_lock(pthread_mutex_t*);
       extern \"C\" int __wrap_pthread_mutex_lock(pthread_mutex_t* m) {
         if (__atomic_load_n(&m->__data.__lock, __ATOMIC_RELAXED) == 0 &&
             pthread_mutex_trylock(m) == 0)
           return 0;
         return __real_pthread_mutex_lock(m);
       }
       int main() { return git_libgit2_init() < 0; }"
      "${CP_LIBGIT2_STATIC_LINK}" ${_cp_lock_wrap})
    set(CP_SPIN_LOCKS ${CP_LIBGIT2_LINKS_SPIN_LOCKS})
  endif()
  # Without the Kerberos libraries where no_gssapi.cpp answers all libgit2.a asks of GSSAPI;
  # then without libssh2 and the OpenSSL it brings where no_ssh.cpp answers all it asks of
  # libssh2.
  set(_cp_gssapi_shim ${CMAKE_CURRENT_LIST_DIR}/../src/git/no_gssapi.cpp)
  cp_libgit2_shim(CP_NO_GSSAPI cp_no_gssapi "gssapi" ${_cp_gssapi_shim} "")
  set(_cp_taken "")
  if(CP_NO_GSSAPI)
    file(READ ${_cp_gssapi_shim} _cp_taken)
  endif()
  cp_libgit2_shim(CP_NO_SSH cp_no_ssh "(^-l|/lib)(ssh2|ssl|crypto)(\\.a|\\.so)?$"
    ${CMAKE_CURRENT_LIST_DIR}/../src/git/no_ssh.cpp "${_cp_taken}")
  target_link_libraries(cp_libgit2 INTERFACE ${CP_LIBGIT2_STATIC_LINK}
    $<$<BOOL:${CP_NO_GSSAPI}>:cp_no_gssapi> $<$<BOOL:${CP_NO_SSH}>:cp_no_ssh>
    Threads::Threads ${CMAKE_DL_LIBS})
  if(CP_NO_TLS_INIT)
    target_link_options(cp_libgit2 INTERFACE ${_cp_tls_wrap})
  endif()
  if(CP_NO_SSH_INIT)
    target_link_options(cp_libgit2 INTERFACE ${_cp_ssh_wrap})
  endif()
  if(CP_SPIN_LOCKS)
    target_link_options(cp_libgit2 INTERFACE ${_cp_lock_wrap})
  endif()
  if(CP_FAST_INFLATE)
    target_include_directories(cp_libgit2 SYSTEM INTERFACE ${CP_LIBDEFLATE_INCLUDE_DIR})
    target_link_libraries(cp_libgit2 INTERFACE ${CP_LIBDEFLATE_ARCHIVE})
    target_link_options(cp_libgit2 INTERFACE ${_cp_inflate_wrap})
  endif()
else()
  set(_cp_linked "shared")
  target_link_libraries(cp_libgit2 INTERFACE ${LIBGIT2_LINK_LIBRARIES} Threads::Threads)
  target_link_options(cp_libgit2 INTERFACE ${LIBGIT2_LDFLAGS_OTHER})
endif()
target_compile_definitions(cp_libgit2 INTERFACE
  CONTEXT_PACK_DIRECT_XDIFF=$<BOOL:${CP_DIRECT_XDIFF}>
  CONTEXT_PACK_NO_TLS_INIT=$<BOOL:${CP_NO_TLS_INIT}>
  CONTEXT_PACK_NO_SSH_INIT=$<BOOL:${CP_NO_SSH_INIT}>
  CONTEXT_PACK_FAST_INFLATE=$<BOOL:${CP_FAST_INFLATE}>
  CONTEXT_PACK_SPIN_LOCKS=$<BOOL:${CP_SPIN_LOCKS}>)
if(CP_DIRECT_XDIFF)
  set(_cp_hunks "the direct xdl_diff call")
else()
  set(_cp_hunks "libgit2's git_diff_buffers")
endif()
set(_cp_ca "")
if(CP_NO_TLS_INIT)
  string(APPEND _cp_ca ", no mbedTLS set-up")
endif()
if(CP_NO_SSH_INIT)
  string(APPEND _cp_ca ", no libssh2 init")
endif()
if(CP_NO_GSSAPI)
  string(APPEND _cp_ca ", no Kerberos libraries (src/git/no_gssapi.cpp)")
endif()
if(CP_NO_SSH)
  string(APPEND _cp_ca ", no libssh2 or OpenSSL (src/git/no_ssh.cpp)")
endif()
if(CP_FAST_INFLATE)
  string(APPEND _cp_ca ", inflate through libdeflate (src/git/inflate.cpp)")
endif()
if(CP_SPIN_LOCKS)
  string(APPEND _cp_ca ", mutexes that spin before they sleep (src/git/spin_locks.cpp)")
endif()
# zlib, which src/git/object_store.cpp calls itself to read loose objects, as the interface
# target cp_zlib: the archive a static libgit2 is already linked with, else the system's.
find_package(ZLIB REQUIRED)
add_library(cp_zlib INTERFACE)
if(CP_LIBGIT2_STATIC AND CP_LIB_z MATCHES "\\.a$")
  target_link_libraries(cp_zlib INTERFACE ${CP_LIB_z})
else()
  target_link_libraries(cp_zlib INTERFACE ZLIB::ZLIB)
endif()

message(STATUS "libgit2 ${LIBGIT2_VERSION}: ${_cp_linked}; hunks through ${_cp_hunks}${_cp_ca}")
