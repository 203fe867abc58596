#!/usr/bin/env bash
# Install what building and testing kpl needs on a fresh Debian machine (idempotent).
#   libz3-dev + libclang-dev: the `z3` crate's bindings (Z3 4.8.12, Debian bookworm)
#   z3, cvc5: the solvers `kpl check-cert` re-proves certificates with, through SMT-LIB 2
#   mdbook (from crates.io): the manual in docs/
#   pocl-opencl-icd, ocl-icd-libopencl1, ocl-icd-opencl-dev: an OpenCL implementation (CPU)
#     for `kpl difftest`, and the headers and library `kpl emit`'s host harness builds with
set -euo pipefail
pkgs="build-essential pkg-config libz3-dev libclang-dev z3 cvc5 python3 pocl-opencl-icd ocl-icd-libopencl1 ocl-icd-opencl-dev"
missing=""
for p in $pkgs; do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get install -y $missing || { $SUDO apt-get update && $SUDO apt-get install -y $missing; }
fi
if ! command -v cargo >/dev/null 2>&1; then
  if [ ! -x "$HOME/.cargo/bin/cargo" ]; then
    curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
  fi
  # The caller's shell keeps its PATH (`scripts/setup.sh && cargo ...`): put the
  # toolchain's commands where that PATH already looks.
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  for tool in cargo rustc rustup; do
    $SUDO ln -sf "$HOME/.cargo/bin/$tool" "/usr/local/bin/$tool"
  done
fi
# mdbook builds the manual in `docs/` (`tests/docs.rs` builds it too); Debian has no
# package of it, so it comes from crates.io, once.
if ! command -v mdbook >/dev/null 2>&1; then
  cargo install mdbook --locked --version "^0.4" --quiet
  if [ -x "$HOME/.cargo/bin/mdbook" ] && ! command -v mdbook >/dev/null 2>&1; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO ln -sf "$HOME/.cargo/bin/mdbook" /usr/local/bin/mdbook
  fi
fi
