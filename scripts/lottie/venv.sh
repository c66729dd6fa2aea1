# Sourced by scripts/lottie-references, scripts/lottie-agreement and scripts/bench-lottie-peers:
# makes the Python venv with the pinned tools of scripts/lottie/requirements.txt and sets PY.
# The venv lives at $FLIPBOOK_LOTTIE_VENV (default: .venv-lottie in the repository). It is
# reinstalled only when requirements.txt changes, so later runs work without network.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
venv="${FLIPBOOK_LOTTIE_VENV:-$root/.venv-lottie}"
req="$root/scripts/lottie/requirements.txt"
stamp="$venv/.flipbook-requirements"
if [ ! -x "$venv/bin/python" ] || ! cmp -s "$req" "$stamp"; then
  command -v python3 >/dev/null || { echo "$self: python3 is needed (apt-get install python3 python3-venv)" >&2; exit 1; }
  if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv" 2>/dev/null || {
      echo "$self: cannot create a venv at $venv (apt-get install python3-venv)" >&2; exit 1; }
  fi
  echo "$self: installing $(grep -v '^#' "$req" | xargs) into $venv" >&2
  if ! "$venv/bin/pip" install --disable-pip-version-check -q --timeout 20 --retries 2 -r "$req" >"$venv/pip.log" 2>&1; then
    echo "$self: could not install the pinned packages from PyPI into $venv." >&2
    echo "$self: is PyPI reachable from here (pip index or proxy settings)? pip's output:" >&2
    tail -n 5 "$venv/pip.log" | sed 's/^/    /' >&2
    exit 3
  fi
  cp "$req" "$stamp"
fi
PY="$venv/bin/python"
export PYTHONPATH="$root/scripts/lottie${PYTHONPATH:+:$PYTHONPATH}"
