#pragma once
// The Python script that recompiles decompiled source inside the interpreter of the bytecode's
// version (3.8+ syntax). The CLI runs it with `-I -c`; the Python package reads the same text from
// `uncompile._core.RECOMPILE_SCRIPT`, both to run it in a subprocess and to call its `recompile`
// in-process when the running interpreter is the right one.
//
//   python -I -c SCRIPT X.Y SOURCE_PATH FILENAME FLAGS   one source; the reply on stdout
//   python -I -c SCRIPT X.Y --serve                      replies to requests on stdin until EOF:
//       request: <u32 flags, u32 len(filename), u32 len(source)> filename source (little-endian)
//       reply:   <u32 len(reply)> reply
//
// A reply is b"M" + marshal.dumps(module code), b"E" + "SyntaxError: ..." when the source does not
// compile, or (first, instead of anything else) b"V" + "3.11" when the interpreter is not X.Y.
// FLAGS are co_flags of the original; only its __future__ bits are passed to compile().

namespace uncompile {

inline constexpr const char* kRecompileScript = R"PY(
import __future__, marshal, struct, sys

FUTURE_FLAGS = 0
for _name in __future__.all_feature_names:
    FUTURE_FLAGS |= getattr(__future__, _name).compiler_flag


def recompile(source, filename, flags):
    try:
        text = source.decode("utf-8", "surrogatepass") if isinstance(source, bytes) else source
        code = compile(text, filename, "exec", flags & FUTURE_FLAGS, dont_inherit=True)
    except (SyntaxError, ValueError, OverflowError, MemoryError, RecursionError) as e:
        return b"E" + ("%s: %s" % (type(e).__name__, e)).encode("utf-8", "backslashreplace")
    return b"M" + marshal.dumps(code)


def serve(inp, out):
    while True:
        head = inp.read(12)
        if len(head) < 12:
            return
        flags, nfile, nsource = struct.unpack("<III", head)
        filename = inp.read(nfile).decode("utf-8", "surrogatepass")
        reply = recompile(inp.read(nsource), filename, flags)
        out.write(struct.pack("<I", len(reply)) + reply)
        out.flush()


def main(argv):
    out = sys.stdout.buffer
    have = "%d.%d" % sys.version_info[:2]
    if argv[1] != have:
        out.write(b"V" + have.encode())
        if argv[2] == "--serve":
            out.write(b"\n")
        return
    if argv[2] == "--serve":
        out.write(b"ready\n")
        out.flush()
        serve(sys.stdin.buffer, out)
        return
    with open(argv[2], "rb") as f:
        source = f.read()
    out.write(recompile(source, argv[3], int(argv[4])))


if __name__ == "__main__":
    main(sys.argv)
)PY";

}  // namespace uncompile
