/* cp_xdiff_hunks: xdl_diff with xdiff's own types, from the header of the libgit2 source that
 * the build compiles (xdiff_hunks.h says why). */
#include "xdiff_hunks.h"

#include <string.h>

#include "xdiff.h"

struct hunk_sink {
    cp_xdiff_hunk_fn on_hunk;
    void* payload;
};

static int to_sink(long old_at, long old_count, long new_at, long new_count, void* sink) {
    const struct hunk_sink* to = sink;
    return to->on_hunk(old_at, old_count, new_at, new_count, to->payload);
}

int cp_xdiff_hunks(const char* old_data, long old_size, const char* new_data, long new_size,
                   int indent_heuristic, cp_xdiff_hunk_fn on_hunk, void* payload) {
    struct hunk_sink to;
    mmfile_t old_file, new_file;
    xpparam_t param;
    xdemitconf_t conf;
    xdemitcb_t callback;

    to.on_hunk = on_hunk;
    to.payload = payload;
    old_file.ptr = (char*)old_data;
    old_file.size = old_size;
    new_file.ptr = (char*)new_data;
    new_file.size = new_size;
    memset(&param, 0, sizeof(param));
    param.flags = indent_heuristic ? XDF_INDENT_HEURISTIC : 0;
    memset(&conf, 0, sizeof(conf)); /* -U0: no context, hunks never joined */
    conf.hunk_func = to_sink;
    memset(&callback, 0, sizeof(callback));
    callback.priv = &to;
    return xdl_diff(&old_file, &new_file, &param, &conf, &callback) < 0 ? -1 : 0;
}
