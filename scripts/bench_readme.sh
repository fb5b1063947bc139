#!/usr/bin/env bash
# Regenerate the measured tables of the README (docs/bench/*.md) with the project's own commands.
# The held-out synthetic set uses seeds from 1,000,000 up: never used for tuning (tuning used < 1000).
# The sudoku table needs ../shared/data/sudoku-photos.
# Usage: bash scripts/bench_readme.sh [COUNT] [--engine]
#   (about 5 minutes for COUNT=60 on 2 cores; --engine adds the solver benchmark, 10+ minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-60}
out=docs/bench
data=$(mktemp -d)
mkdir -p "$out"
aggression-vision synth --count "$count" --seed 1000000 --out "$data" --workers 2 >/dev/null
aggression-vision bench "$data" --markdown --workers 2 --out "$out/synthetic-cnn.json" \
  > "$out/synthetic-cnn.md"
aggression-vision bench "$data" --limit 20 --ocr tesseract --markdown --workers 2 \
  --out "$out/synthetic-tesseract.json" > "$out/synthetic-tesseract.md"
aggression-vision bench "$data" --limit 20 --ocr cnn --markdown --workers 2 \
  --out "$out/synthetic-cnn-20.json" > "$out/synthetic-cnn-20.md"
if [ -d ../shared/data/sudoku-photos ]; then
  aggression-vision bench --sudoku ../shared/data/sudoku-photos --markdown --workers 2 \
    --out "$out/sudoku.json" > "$out/sudoku.md"
fi
if [ "${2:-}" = "--engine" ]; then
  aggression-vision bench engine --out "$out/engine.json" > "$out/engine.md"
fi
rm -rf "$data"
echo "tables written to $out/"
