#!/bin/bash -eu
# Build every fuzz/*_fuzzer.py for ClusterFuzzLite / OSS-Fuzz, with its seed corpus and dictionary.
# Run by the base-builder-python image (which provides compile_python_fuzzer) from $SRC/utf8cert;
# $OUT receives, per target NAME: the fuzzer, NAME_seed_corpus.zip and NAME.dict.
cd "$SRC/utf8cert"

# utf8cert itself, with its vectors (package data: the mutator splices them into inputs).
pip3 install .

for fuzzer in fuzz/*_fuzzer.py; do
  name=$(basename "$fuzzer" .py)
  # The codec and atheris are imported by name at run time, and the vectors read as package data:
  # PyInstaller must be told about all three.
  compile_python_fuzzer "$fuzzer" \
    --hidden-import=atheris \
    --collect-submodules=utf8cert \
    --collect-data=utf8cert.vectors
  # Seeds: the raw files `utf8cert corpus build` wrote from the vectors, zipped flat.
  (cd corpus/seeds && python3 -m zipfile -c "$OUT/${name}_seed_corpus.zip" ./*)
  cp corpus/utf8.dict "$OUT/${name}.dict"
done
