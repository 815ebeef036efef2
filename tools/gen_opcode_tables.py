#!/usr/bin/env python3
"""Generate the C++ opcode tables of uncompile from each interpreter's own `opcode`/`dis`.

Two steps, so the tables can be regenerated where an interpreter is missing:
  1. For every CPython 3.8–3.13 found under `pyenv root`, run this file with `--emit-facts` in that
     interpreter; it writes tools/opcode_facts/<major>.<minor>.json.  Versions whose interpreter is
     absent keep the facts file already in the repository.
  2. From all facts files, write src/core/generated/opcodes.h (a version-neutral `Opcode` enum,
     the union of every version's names) and src/core/generated/opcode_tables.cpp (per version:
     byte -> Opcode, argument classes, inline-cache sizes, and the name lists that resolve args).

Usage: python tools/gen_opcode_tables.py            # refresh facts where possible, then generate
       python tools/gen_opcode_tables.py --no-refresh
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FACTS_DIR = os.path.join(HERE, "opcode_facts")
OUT_DIR = os.path.join(ROOT, "src", "core", "generated")
VERSIONS = ["3.8", "3.9", "3.10", "3.11", "3.12", "3.13"]

# Low bits of an argument that are flags rather than part of the index, per version. `dis`
# hard-codes these (e.g. `arg >> 1` for LOAD_GLOBAL on 3.11+) instead of exposing them as data,
# so they are kept here, next to the rest of the generated facts.
ARG_FLAG_BITS = {
    "3.11": {"LOAD_GLOBAL": 1},
    "3.12": {"LOAD_GLOBAL": 1, "LOAD_ATTR": 1, "LOAD_SUPER_ATTR": 2, "COMPARE_OP": 4},
    "3.13": {"LOAD_GLOBAL": 1, "LOAD_ATTR": 1, "LOAD_SUPER_ATTR": 2, "COMPARE_OP": 5},
}


def emit_facts():
    """Runs inside the interpreter being described; prints its facts as JSON."""
    import dis
    import opcode

    names = []
    for op in range(256):
        name = opcode.opname[op] if op < len(opcode.opname) else "<%d>" % op
        names.append(None if name.startswith("<") else name)

    def has(attr):
        return sorted(op for op in getattr(opcode, attr, []) if op < 256)

    if hasattr(opcode, "hasarg"):
        has_arg = has("hasarg")
    else:
        has_arg = [op for op in range(opcode.HAVE_ARGUMENT, 256)]

    caches = [0] * 256
    entries = getattr(opcode, "_inline_cache_entries", None)
    if isinstance(entries, dict):  # 3.13: keyed by name
        for name, count in entries.items():
            if name in opcode.opmap and opcode.opmap[name] < 256:
                caches[opcode.opmap[name]] = count
    elif entries is not None:  # 3.11/3.12: indexed by opcode
        for op, count in enumerate(entries[:256]):
            caches[op] = count

    jrel = set(has("hasjrel"))
    jabs = set(has("hasjabs"))
    # 3.13 lists some jumps only in `hasjump`; dis treats those as relative.
    jrel |= set(has("hasjump")) - jabs

    # Jump arguments count bytes before 3.10 and code units after; measure it on a real jump.
    def sample(x):
        while x:
            x -= 1
    jump_unit = None
    for ins in dis.get_instructions(sample):
        if ins.opcode in jrel | jabs and ins.arg:
            cache_bytes = 2 * caches[ins.opcode]
            base = 0 if ins.opcode in jabs else ins.offset + 2 + cache_bytes
            jump_unit = abs(ins.argval - base) // ins.arg
            break

    make_function_flags = getattr(dis, "MAKE_FUNCTION_FLAGS", None) or getattr(dis, "FUNCTION_ATTR_FLAGS", ())
    return {
        "version": "%d.%d" % sys.version_info[:2],
        "full_version": sys.version.split()[0],
        "magic": int.from_bytes(__import__("importlib.util").util.MAGIC_NUMBER[:2], "little"),
        "names": names,
        "has_arg": has_arg,
        "has_const": has("hasconst"),
        "has_name": has("hasname"),
        "has_local": has("haslocal"),
        "has_free": has("hasfree"),
        "has_compare": has("hascompare"),
        "jump_relative": sorted(jrel),
        "jump_absolute": sorted(jabs),
        "cache_entries": caches,
        "jump_unit": jump_unit,
        "cmp_op": list(opcode.cmp_op),
        "binary_ops": [symbol for _, symbol in getattr(opcode, "_nb_ops", [])],
        "intrinsic_1": list(getattr(opcode, "_intrinsic_1_descs", [])),
        "intrinsic_2": list(getattr(opcode, "_intrinsic_2_descs", [])),
        "make_function_flags": list(make_function_flags),
    }


def find_interpreter(version):
    try:
        root = subprocess.run(["pyenv", "root"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    versions_dir = os.path.join(root, "versions")
    if not os.path.isdir(versions_dir):
        return None
    candidates = sorted(d for d in os.listdir(versions_dir) if d.startswith(version + ".")
                        and d[len(version) + 1:].isdigit())
    for d in reversed(candidates):
        exe = os.path.join(versions_dir, d, "bin", "python")
        if os.path.exists(exe):
            return exe
    return None


def refresh_facts():
    os.makedirs(FACTS_DIR, exist_ok=True)
    for version in VERSIONS:
        exe = find_interpreter(version)
        if exe is None:
            print("no interpreter for %s: keeping the stored facts" % version)
            continue
        out = subprocess.run([exe, __file__, "--emit-facts"], capture_output=True, text=True, check=True).stdout
        with open(os.path.join(FACTS_DIR, version + ".json"), "w") as f:
            f.write(out)
        print("facts for %s from %s" % (version, exe))


def load_facts():
    facts = []
    for version in VERSIONS:
        path = os.path.join(FACTS_DIR, version + ".json")
        with open(path) as f:
            facts.append(json.load(f))
    return facts


def cpp_string_list(items):
    return "{" + ", ".join(json.dumps(s) for s in items) + "}"


HEADER = "// Generated by tools/gen_opcode_tables.py from each interpreter's opcode/dis modules. Do not edit.\n"


def generate(facts):
    all_names = sorted({n for f in facts for n in f["names"] if n})
    os.makedirs(OUT_DIR, exist_ok=True)
    with open(os.path.join(OUT_DIR, "opcodes.h"), "w") as out:
        out.write(HEADER)
        out.write("#pragma once\n#include <cstdint>\n\nnamespace uncompile {\n\n")
        out.write("// Every opcode name of every supported version; bytes map to these per version.\n")
        out.write("enum class Opcode : uint16_t {\n    INVALID,\n")
        for name in all_names:
            out.write("    %s,\n" % name)
        out.write("};\n\ninline constexpr int kOpcodeCount = %d;\n\n" % (len(all_names) + 1))
        out.write("const char* opcode_name(Opcode op);\n\n}  // namespace uncompile\n")

    lines = [HEADER, '#include "opcode_table.h"\n\nnamespace uncompile {\n']
    lines.append("namespace {\n")
    lines.append("constexpr const char* kNames[] = {\"<invalid>\", %s};\n" % ", ".join(json.dumps(n) for n in all_names))
    for f in facts:
        tag = f["version"].replace(".", "_")
        rows = []
        for op in range(256):
            name = f["names"][op]
            flags = []
            for key, flag in (("has_arg", "kHasArg"), ("has_const", "kHasConst"), ("has_name", "kHasName"),
                              ("has_local", "kHasLocal"), ("has_free", "kHasFree"), ("has_compare", "kHasCompare"),
                              ("jump_relative", "kJumpRelative"), ("jump_absolute", "kJumpAbsolute")):
                if op in f[key]:
                    flags.append(flag)
            if name and "JUMP_BACKWARD" in name:  # dis's own rule for the direction of a relative jump
                flags.append("kJumpBackward")
            flag_bits = ARG_FLAG_BITS.get(f["version"], {}).get(name, 0)
            rows.append("    {Opcode::%s, %d, %d, %s}," % (name or "INVALID", f["cache_entries"][op], flag_bits,
                                                         " | ".join(flags) or "0"))
        lines.append("const OpcodeInfo kOps_%s[256] = {\n%s\n};\n" % (tag, "\n".join(rows)))
        for key in ("cmp_op", "binary_ops", "intrinsic_1", "intrinsic_2", "make_function_flags"):
            items = f[key]
            lines.append("const std::vector<std::string> k_%s_%s = %s;\n" % (key, tag, cpp_string_list(items)))
    lines.append("}  // namespace\n\n")
    lines.append("const char* opcode_name(Opcode op) { return kNames[static_cast<int>(op)]; }\n\n")
    lines.append("const OpcodeTable* opcode_table_for(PyVersion version) {\n")
    for f in facts:
        tag = f["version"].replace(".", "_")
        major, minor = f["version"].split(".")
        lines.append("    static const OpcodeTable t%s{{%s, %s}, %d, %d, kOps_%s, k_cmp_op_%s, k_binary_ops_%s,\n"
                     "                                k_intrinsic_1_%s, k_intrinsic_2_%s, k_make_function_flags_%s};\n"
                     % (tag, major, minor, f["magic"], f["jump_unit"], tag, tag, tag, tag, tag, tag))
        lines.append("    if (version == PyVersion{%s, %s}) return &t%s;\n" % (major, minor, tag))
    lines.append("    return nullptr;\n}\n\n")
    lines.append("const OpcodeTable* opcode_table_for_magic(uint16_t magic) {\n")
    for f in facts:
        major, minor = f["version"].split(".")
        lines.append("    if (magic == %d) return opcode_table_for(PyVersion{%s, %s});\n" % (f["magic"], major, minor))
    lines.append("    return nullptr;\n}\n\n}  // namespace uncompile\n")
    with open(os.path.join(OUT_DIR, "opcode_tables.cpp"), "w") as out:
        out.write("".join(lines))
    print("wrote %s (%d opcode names)" % (OUT_DIR, len(all_names)))


def main():
    if "--emit-facts" in sys.argv:
        print(json.dumps(emit_facts(), indent=1))
        return
    if "--no-refresh" not in sys.argv:
        refresh_facts()
    generate(load_facts())


if __name__ == "__main__":
    main()
