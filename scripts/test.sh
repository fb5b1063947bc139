#!/usr/bin/env bash
# Install everything the tests need, then lint, type-check and run the whole suite.
# Usage: bash scripts/test.sh [extra pytest args]
set -euo pipefail
cd "$(dirname "$0")/.."

# System packages: Tesseract for the optional OCR backend's tests.
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && ! command -v tesseract >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends tesseract-ocr tesseract-ocr-eng >/dev/null
fi

python3 -m pip install -q --disable-pip-version-check -e '.[dev]' 2>&1 | grep -v "Running pip as the 'root' user" || true

python3 -m ruff check .
python3 -m mypy
python3 -m pytest -q "$@"
