#!/usr/bin/env bash
# Installs the WASM decoder's toolchain from Debian's packages when missing (idempotent, ~15 s,
# ~220 MB): clang-19 + lld-19 + wasi-libc + compiler-rt's wasm32 builtins (libclang_rt.builtins.a,
# which wasm-ld links in; its own package), what scripts/build-wasm.sh compiles json-lines.c with.
# Only needed to change or check the decoder: the built .wasm is committed. Needs root (apt-get),
# as on the CI machine. Prints nothing when everything is there.
set -euo pipefail
need=()
command -v clang-19 >/dev/null || need+=(clang-19)
command -v wasm-ld-19 >/dev/null || need+=(lld-19)
[ -d /usr/lib/wasm32-wasi ] || need+=(wasi-libc)
[ -f /usr/lib/llvm-19/lib/clang/19/lib/wasm32-unknown-wasi/libclang_rt.builtins.a ] ||
  need+=(libclang-rt-19-dev-wasm32)
[ ${#need[@]} -eq 0 ] && exit 0
echo "== installing ${need[*]} (Debian packages) for the WASM decoder check" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq --no-install-recommends "${need[@]}" >&2
