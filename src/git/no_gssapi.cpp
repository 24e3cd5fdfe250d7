// GSSAPI for a tool that never connects. Debian's libgit2.a offers HTTP Negotiate (SPNEGO)
// authentication through GSSAPI, and linking the Kerberos libraries it needs loads seven
// shared libraries at every start (about 1.5 ms, more than a small job's work). A static
// libgit2 is linked with these instead (cmake/Libgit2.cmake): every call answers that no
// mechanism is available, which libgit2 meets only when a remote asks for Negotiate, and
// this tool has no remotes. The functions are RFC 2744's C binding; every argument is a
// pointer or a 32-bit status there, so they are declared with untyped pointers here, as no
// GSSAPI header need be installed.
#include <cstdint>

namespace {

using Status = std::uint32_t;           // OM_uint32
constexpr Status kFailure = 13u << 16;  // GSS_S_FAILURE: a routine error, "failure"
constexpr Status kComplete = 0;         // GSS_S_COMPLETE

Status fail(Status* minor) {
    if (minor) *minor = 0;
    return kFailure;
}

// gss_OID_desc: a length and the bytes.
struct Oid {
    Status length;
    void* elements;
};
Oid hostbased_service{0, nullptr};

}  // namespace

extern "C" {

void* GSS_C_NT_HOSTBASED_SERVICE = &hostbased_service;

Status gss_indicate_mechs(Status* minor, void** mech_set) {
    if (mech_set) *mech_set = nullptr;
    return fail(minor);
}
Status gss_import_name(Status* minor, void*, void*, void** name) {
    if (name) *name = nullptr;
    return fail(minor);
}
Status gss_init_sec_context(Status* minor, void*, void** context, void*, void*, Status, Status,
                            void*, void*, void**, void*, Status*, Status*) {
    if (context) *context = nullptr;
    return fail(minor);
}
Status gss_display_status(Status* minor, Status, int, void*, Status* more, void* text) {
    if (more) *more = 0;
    struct Buffer {  // gss_buffer_desc
        std::size_t length;
        void* value;
    };
    if (text) *static_cast<Buffer*>(text) = Buffer{0, nullptr};
    return fail(minor);
}
Status gss_delete_sec_context(Status* minor, void** context, void*) {
    if (context) *context = nullptr;
    if (minor) *minor = 0;
    return kComplete;
}
Status gss_release_name(Status* minor, void** name) {
    if (name) *name = nullptr;
    if (minor) *minor = 0;
    return kComplete;
}
Status gss_release_buffer(Status* minor, void*) {
    if (minor) *minor = 0;
    return kComplete;
}
Status gss_release_oid_set(Status* minor, void** set) {
    if (set) *set = nullptr;
    if (minor) *minor = 0;
    return kComplete;
}

}  // extern "C"
