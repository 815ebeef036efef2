"""`python -m uncompile report DUMP_DIR [-o OUT]` (the C++ `uncompile` executable forwards
`uncompile report ...` here)."""
import sys

USAGE = "usage: python -m uncompile report DUMP_DIR [-o OUT]\n"


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        sys.stdout.write(USAGE)
        return 0 if argv else 2
    if argv[0] == "report":
        from .report import main as report_main
        return report_main(argv[1:])
    sys.stderr.write(f"python -m uncompile: unknown command {argv[0]!r}\n" + USAGE)
    return 2


if __name__ == "__main__":
    sys.exit(main())
