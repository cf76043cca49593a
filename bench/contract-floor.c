/* contract-floor: the least a server can do per keystroke and still send what maskd's protocol asks for.
 *
 * floor-echo (the transport floor, built by bench/run from FLOOR_ECHO_C) answers a didChange with a didFormat that has no edits and no fields. maskd's
 * contract (Protocol/protocol.md) asks for more: each field's state (`FieldState`, every member) and the edits
 * that put in the separators, which the editor applies and echoes back in a didChange of its own. This program formats
 * nothing either: it is floor-echo itself (its source is included, so the framing, the parsing and the writing
 * are the same code) with one change, the answer to a didChange: it replays the didFormats maskd sent for the same
 * keys, so that what it costs beyond floor-echo is only the transport of the contract's messages:
 *   - the recording (argv[1]) holds one didFormat `params` object per line, one for each of a typing script's keys
 *     in order, recorded from maskd by maskd-bench; it is parsed once, at start-up;
 *   - every didChange is parsed; the one after a didFormat with edits is the client's echo (maskd-bench's client
 *     answers in lockstep) and gets nothing, any other is the person's next key and gets the recording's next
 *     didFormat, the version set to the change's, dumped whole. Nothing is copied: the recorded tree is dumped in
 *     place, so no daemon that builds its message can be cheaper;
 *   - everything else is answered as floor-echo answers it (`initialize` names floor-echo).
 * Build: cc -O2 -I DIR -o contract-floor contract-floor.c -ljansson, where DIR holds floor-echo.c.
 */
/* floor-echo's own functions: `read_frame`, `write_msg` (which releases what it writes), `answer`. Its `main` and
 * `did_change` are renamed out of the way; the loop below is its loop with this program's `did_change`. */
#define main floor_echo_main
#define did_change floor_did_change
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "floor-echo.c"
#pragma GCC diagnostic pop
#undef did_change
#undef main

/* The recorded didFormats, each a whole notification ready to dump. */
static json_t **formats;
static size_t format_count;

static int load_recording(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) { perror(path); return 0; }
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    while ((got = getline(&line, &cap, f)) > 0) {
        if (got <= 1) continue;
        json_error_t err;
        json_t *params = json_loadb(line, (size_t)got, 0, &err);
        if (!params || !json_is_object(params)) {
            fprintf(stderr, "contract-floor: %s: line %zu: %s\n", path, format_count + 1, err.text);
            return 0;
        }
        json_t *message = json_pack("{s:s,s:s,s:o}", "jsonrpc", "2.0", "method", "maskd/didFormat", "params", params);
        formats = realloc(formats, (format_count + 1) * sizeof *formats);
        formats[format_count++] = message;
    }
    free(line);
    fclose(f);
    if (format_count == 0) { fprintf(stderr, "contract-floor: %s holds no didFormat\n", path); return 0; }
    return 1;
}

static size_t next_key;
static int echo_due;

static void did_change(json_t *params) {
    if (echo_due) { echo_due = 0; return; }
    json_t *message = formats[next_key++ % format_count];
    json_t *format = json_object_get(message, "params");
    json_t *version = json_object_get(json_object_get(params, "textDocument"), "version");
    json_object_set(json_object_get(format, "textDocument"), "version", version ? version : json_null());
    echo_due = json_array_size(json_object_get(format, "edits")) > 0;
    write_msg(json_incref(message));  /* kept for the next period: write_msg releases one reference */
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: contract-floor RECORDING\n"); return 2; }
    if (!load_recording(argv[1])) return 1;
    size_t len;
    char *body;
    while ((body = read_frame(&len))) {
        json_error_t err;
        json_t *msg = json_loadb(body, len, 0, &err);
        free(body);
        if (!msg) {
            write_msg(json_pack("{s:s,s:n,s:{s:i,s:s}}", "jsonrpc", "2.0", "id", "error", "code", -32700,
                                "message", err.text));
            continue;
        }
        const char *method = json_string_value(json_object_get(msg, "method"));
        json_t *id = json_object_get(msg, "id");
        json_t *params = json_object_get(msg, "params");
        if (method && strcmp(method, "exit") == 0) { json_decref(msg); return 0; }
        if (method && id)
            write_msg(json_pack("{s:s,s:O,s:o}", "jsonrpc", "2.0", "id", id, "result", answer(method, params)));
        else if (method && strcmp(method, "textDocument/didChange") == 0)
            did_change(params);
        json_decref(msg);
    }
    return 0;
}
