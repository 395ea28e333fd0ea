#!/bin/bash -eu
# Build every fuzz/*_fuzzer.py for ClusterFuzzLite / OSS-Fuzz, with its options, seed corpus and
# dictionary. Run by the base-builder-python image (which provides compile_python_fuzzer) from
# $SRC/utf8cert; $OUT receives, per target NAME: the fuzzer, NAME.options (max_len past the 64 KiB
# boundary: libFuzzer's default of 4096 would stop short of it), NAME_seed_corpus.zip (the
# vectors' inputs and seeds straddling 64, 4096 and 65536 bytes) and NAME.dict.
# A project fuzzing its own codec uses the same lines (docs/fuzzing.md, "ClusterFuzzLite").
cd "$SRC/utf8cert"

# utf8cert itself, with its vectors (package data: the mutator splices them into inputs).
pip3 install .

for fuzzer in fuzz/*_fuzzer.py; do
  name=$(basename "$fuzzer" .py)
  # PyInstaller packages what the target imports. Told besides: atheris (imported by name at run
  # time), the codec loaders (adapters are imported by name) and the vectors (package data). Left
  # out: the pytest plugin, the Hypothesis strategies and the rich reports, which a target never
  # imports (45 MB a target with them: bench/README.md, "## fuzz: packaged targets").
  compile_python_fuzzer "$fuzzer" \
    --hidden-import=atheris \
    --collect-submodules=utf8cert.harness.codec \
    --collect-data=utf8cert.vectors \
    --exclude-module=pytest --exclude-module=_pytest --exclude-module=hypothesis \
    --exclude-module=rich --exclude-module=pygments
  python3 -m utf8cert.harness corpus pack "$name" --out "$OUT"
done
