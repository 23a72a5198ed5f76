"""Which sources `make fuzz-mutants` (scripts/fuzz/fuzz-mutants.py) mutates, and which fuzz targets
fuzz each mutant: the two tables below, checked against the tree, so that a new source or a new
fuzz target is never silently left out."""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Which fuzz targets reach a source file (first match wins). Every file under core/src/ is
# mutated when a row maps it, unless NOT_MUTATED lists it; a file neither maps nor lists is an
# error (a new source is never silently left out), and so is a target here that
# scripts/fuzz/fuzz-targets.sh does not list, or one of its targets that no row names.
TARGETS = [
    (r"core/src/aabb\.c$", ["aabb", "args"]),
    (r"core/src/aabb_ref\.h$", ["aabb", "broadphase"]),
    (r"core/src/mtd\.c$", ["mtd", "args"]),
    (r"core/src/mtd", ["mtd"]),
    (r"core/src/sprite\.c$", ["sprite", "args"]),
    (r"core/src/sprite", ["sprite", "mask"]),
    (r"core/src/mask\.c$", ["mask", "args", "move"]),
    (r"core/src/mask", ["mask", "move"]),
    (r"core/src/move\.c$", ["move", "args"]),
    (r"core/src/sweep\.c$", ["sweep", "args"]),
    (r"core/src/(sweep|segment)", ["sweep"]),
    (r"core/src/slab\.c$", ["slab", "args"]),
    (r"core/src/slab_ref\.h$", ["slab"]),
    (r"core/src/scene", ["scene"]),  # scene.c, scene_text.c, scene_rules.h
    (r"core/src/circle\.c$", ["circle", "args", "sim"]),
    (r"core/src/circle", ["circle", "sim"]),
    (r"core/src/broadphase/pairs\.c$", ["broadphase", "parallel", "args", "sim"]),
    (r"core/src/broadphase/bipartite\.c$", ["broadphase", "args"]),
    (r"core/src/broadphase/cache/(cache\.c|state\.h)$", ["cache", "broadphase", "args"]),
    (r"core/src/broadphase/cache/frame\.c$", ["cache", "broadphase"]),  # the simulations use no cache
    (r"core/src/broadphase/cache/(sap|sap_order)\.c$", ["broadphase", "cache"]),
    (r"core/src/broadphase/tree\.c$", ["cache", "broadphase", "sim"]),
    (r"core/src/sim(_world)?\.c$", ["sim", "args"]),
    (r"core/src/sim(_[a-z]+)?\.[ch]$", ["sim"]),
    (r"core/src/broadphase/(parallel|tasks/(run|sweep|steal|sort))\.c$", ["parallel"]),
    (r"core/src/broadphase/(sap/(front|pick)|tasks/parts)\.c$", ["broadphase", "parallel"]),  # both front ends
    (r"core/src/broadphase/", ["broadphase", "parallel", "sim"]),
    (r"core/src/parallel/", ["parallel"]),  # the thread pool: the parallel target runs it
    (r"core/src/simd/simd_aabb\.h$", ["aabb", "broadphase"]),
    (r"core/src/simd/simd_sap\.h$", ["broadphase"]),
    (r"core/src/simd/simd_mtd\.h$", ["mtd"]),
    (r"core/src/simd/simd_sprite\.h$", ["sprite"]),
    (r"core/src/simd/simd_mask\.h$", ["mask"]),
    (r"core/src/simd/simd_sweep\.h$", ["sweep"]),
    (r"core/src/simd/simd_slab\.h$", ["slab"]),
    (r"core/src/simd/simd_circle\.h$", ["circle"]),
    (r"core/src/simd/simd_common\.h$", ["aabb", "mtd", "sweep"]),
]

# The sources under core/src/ that are not mutated, and why (checked before TARGETS). Adding
# one to the mutated sources changes which mutants a seed draws.
NOT_MUTATED = [
    (r"core/src/(scalar|x86/autovec)\.c$|core/src/ref_backend\.h$|core/src/simd/simd_kernels\.h$",
     "only instantiates kernels written in other files (mutated there)"),
    (r"core/src/(x86|arm)/", "an ISA's vocabulary (loads, compares, lane moves); not in the sample "
     "so far (the seeded-bug self-test breaks avx2.c and avx512.c)"),
    (r"core/src/(backend|cpu)\.c$|core/src/backend\.h$",
     "the backend table, its registry and the CPU tests; not in the sample so far"),
    (r"core/src/validate\.h$", "the structure checks' switch and their failure report (only in the "
     "unit-test, sanitizer and fuzzing builds: they check the library, they are not it)"),
    (r"core/src/broadphase/broadphase\.h$|core/src/sim_internal\.h$",
     "shared declarations and helpers of the broadphases / simulations; not in the sample so far"),
]


def fuzz_targets():
    """The fuzz targets, as the Makefile finds them (scripts/fuzz/fuzz-targets.sh)."""
    out = subprocess.run(["bash", os.path.join(ROOT, "scripts", "fuzz", "fuzz-targets.sh")],
                         stdout=subprocess.PIPE, text=True, check=True).stdout
    return out.split()


def plan():
    """The mutated sources with the targets that reach each ({path: targets}) and the sources
    left out ({path: reason}); exits naming every file or target the tables do not account for."""
    files = sorted(os.path.relpath(os.path.join(d, f), ROOT)
                   for d, _, names in os.walk(os.path.join(ROOT, "core", "src"))
                   for f in names if f.endswith((".c", ".h")))
    mutated, left_out, problems = {}, {}, []
    for path in files:
        reason = next((r for pattern, r in NOT_MUTATED if re.search(pattern, path)), None)
        targets = next((t for pattern, t in TARGETS if re.search(pattern, path)), None)
        if reason is not None:
            left_out[path] = reason
        elif targets is not None:
            mutated[path] = targets
        else:
            problems.append(f"{path}: no row of TARGETS maps it to the fuzz targets that reach it, "
                            f"and NOT_MUTATED does not list it")
    known = fuzz_targets()
    named = sorted({t for _, ts in TARGETS for t in ts})
    problems += [f"TARGETS names {t}, which is no fuzz target (fuzz/fuzz_{t}.c)"
                 for t in named if t not in known]
    problems += [f"the fuzz target {t} (fuzz/fuzz_{t}.c) is in no row of TARGETS"
                 for t in known if t not in named]
    if problems:
        sys.exit("fuzz-mutants: scripts/fuzz/fuzz_mutants_plan.py does not account for:\n  "
                 + "\n  ".join(problems))
    return mutated, left_out
