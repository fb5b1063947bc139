#!/usr/bin/env bash
# Install everything the tests need, then lint, type-check and run the whole suite.
# Usage: bash scripts/test.sh [extra pytest args]
set -euo pipefail
cd "$(dirname "$0")/.."

# System packages: Tesseract for the optional OCR backend's tests; the handwriting fonts the
# synthetic-photo generator draws with (the committed samples were made with all of them).
packages="tesseract-ocr tesseract-ocr-eng fonts-dkg-handwriting fonts-humor-sans fonts-breip
  fonts-bwht fonts-comic-neue fonts-kristi fonts-rufscript fonts-sjfonts fonts-klee
  fonts-yusei-magic fonts-kaushanscript"
missing=""
for p in $packages; do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # shellcheck disable=SC2086
  apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

# (A failed install stops here, with pip's own message; one retry for a transient registry error.)
export PIP_ROOT_USER_ACTION=ignore PIP_DISABLE_PIP_VERSION_CHECK=1
if ! python3 -m pip install -q -e '.[dev]'; then
  echo "scripts/test.sh: pip install failed; trying once more" >&2
  python3 -m pip install -q -e '.[dev]'
fi

python3 -m ruff check .
python3 -m mypy
python3 -m pytest -q "$@"
