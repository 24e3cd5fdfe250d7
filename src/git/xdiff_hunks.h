/* Line hunks from libgit2's bundled xdiff (git's own), called directly: the -U0 diff of two
 * buffers, each hunk handed to a callback. Built only with the libgit2 built here
 * (cmake/Libgit2.cmake), whose source holds xdiff's header; libgit2.so does not export
 * xdl_diff. git_diff_buffers runs the same xdl_diff, but first hashes both buffers with SHA-1
 * to tell whether they are equal: a fifth of a large run's instructions. */
#ifndef CONTEXT_PACK_GIT_XDIFF_HUNKS_H
#define CONTEXT_PACK_GIT_XDIFF_HUNKS_H

#ifdef __cplusplus
extern "C" {
#endif

/* One hunk, with xdiff's 0-based first lines; returns 0 to go on. */
typedef int (*cp_xdiff_hunk_fn)(long old_at, long old_count, long new_at, long new_count,
                                void* payload);

/* Myers with the indent heuristic where `indent_heuristic` is non-zero (git diff's default;
 * git log -L's diffs have no flags), no context, hunks never joined. 0, or -1 when xdiff runs
 * out of memory. */
int cp_xdiff_hunks(const char* old_data, long old_size, const char* new_data, long new_size,
                   int indent_heuristic, cp_xdiff_hunk_fn on_hunk, void* payload);

#ifdef __cplusplus
}
#endif

#endif
