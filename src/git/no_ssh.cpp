// SSH for a tool that never connects. Debian's libgit2.a offers ssh:// remotes through
// libssh2, whose archive brings OpenSSL's libcrypto with it: 370 KB of tables relocated at
// every start and OpenSSL's set-up run before main, about 1 ms of a 4 ms start
// (docs/performance.md, issue 17, round ten). A static libgit2 is linked with these instead
// (cmake/Libgit2.cmake), where libgit2.a names no more of libssh2 than this file answers:
// making a session fails, so libgit2 reports that an SSH session cannot be made before it
// calls anything else here, and this tool has no remotes. The functions are libssh2 1.10's;
// their handles are untyped pointers here, as no libssh2 header need be installed, and
// ssize_t is ptrdiff_t.
#include <sys/types.h>  // ssize_t

#include <cstddef>

namespace {

constexpr int kFailed = -1;                // LIBSSH2_ERROR_SOCKET_NONE, libssh2's generic failure
constexpr int kKnownHostCheckFailure = 3;  // LIBSSH2_KNOWNHOST_CHECK_FAILURE
char kNoSsh[] = "this program is built without SSH";

}  // namespace

extern "C" {

int libssh2_init(int) {
    return 0;  // nothing to set up: no session is ever made
}
void libssh2_exit() {}

void* libssh2_session_init_ex(void*, void*, void*, void*) {
    return nullptr;
}
int libssh2_session_last_error(void*, char** message, int* length, int) {
    if (message) *message = kNoSsh;
    if (length) *length = static_cast<int>(sizeof kNoSsh - 1);
    return kFailed;
}
void** libssh2_session_abstract(void*) {
    return nullptr;
}
int libssh2_session_handshake(void*, int) {
    return kFailed;
}
int libssh2_session_method_pref(void*, int, const char*) {
    return kFailed;
}
void libssh2_session_set_blocking(void*, int) {}
const char* libssh2_session_hostkey(void*, std::size_t* length, int* type) {
    if (length) *length = 0;
    if (type) *type = 0;
    return nullptr;
}
const char* libssh2_hostkey_hash(void*, int) {
    return nullptr;
}
int libssh2_session_disconnect_ex(void*, int, const char*, const char*) {
    return kFailed;
}
int libssh2_session_free(void*) {
    return 0;
}

void* libssh2_knownhost_init(void*) {
    return nullptr;
}
int libssh2_knownhost_readfile(void*, const char*, int) {
    return kFailed;
}
int libssh2_knownhost_checkp(void*, const char*, int, const char*, std::size_t, int, void** known) {
    if (known) *known = nullptr;
    return kKnownHostCheckFailure;
}
void libssh2_knownhost_free(void*) {}

char* libssh2_userauth_list(void*, const char*, unsigned) {
    return nullptr;
}
int libssh2_userauth_authenticated(void*) {
    return 0;
}
int libssh2_userauth_password_ex(void*, const char*, unsigned, const char*, unsigned, void*) {
    return kFailed;
}
int libssh2_userauth_keyboard_interactive_ex(void*, const char*, unsigned, void*) {
    return kFailed;
}
int libssh2_userauth_publickey(void*, const char*, const unsigned char*, std::size_t, void*,
                               void**) {
    return kFailed;
}
int libssh2_userauth_publickey_fromfile_ex(void*, const char*, unsigned, const char*, const char*,
                                           const char*) {
    return kFailed;
}
int libssh2_userauth_publickey_frommemory(void*, const char*, std::size_t, const char*, std::size_t,
                                          const char*, std::size_t, const char*) {
    return kFailed;
}

void* libssh2_agent_init(void*) {
    return nullptr;
}
int libssh2_agent_connect(void*) {
    return kFailed;
}
int libssh2_agent_list_identities(void*) {
    return kFailed;
}
int libssh2_agent_get_identity(void*, void** identity, void*) {
    if (identity) *identity = nullptr;
    return kFailed;
}
int libssh2_agent_userauth(void*, const char*, void*) {
    return kFailed;
}
int libssh2_agent_disconnect(void*) {
    return kFailed;
}
void libssh2_agent_free(void*) {}

void* libssh2_channel_open_ex(void*, const char*, unsigned, unsigned, unsigned, const char*,
                              unsigned) {
    return nullptr;
}
int libssh2_channel_process_startup(void*, const char*, unsigned, const char*, unsigned) {
    return kFailed;
}
void libssh2_channel_set_blocking(void*, int) {}
std::ptrdiff_t libssh2_channel_read_ex(void*, int, char*, std::size_t) {
    return kFailed;
}
std::ptrdiff_t libssh2_channel_write_ex(void*, int, const char*, std::size_t) {
    return kFailed;
}
int libssh2_channel_close(void*) {
    return kFailed;
}
int libssh2_channel_free(void*) {
    return 0;
}

}  // extern "C"
