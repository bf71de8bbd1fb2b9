#!/usr/bin/env bash
# Builds the service's image from the Dockerfile, unchanged, with podman, on a machine that reaches
# only the npm registry and Debian's packages:
#
#   bash scripts/image/build.sh [TAG]        # TAG: catalog-inventory-read-api:local by default
#
# - FROM node:26-trixie-slim is the local stand-in of scripts/image/build-base.sh, built first when
#   it is missing or that script has changed since (an image of that tag without the script's label,
#   the official one pulled from a registry, is used as it is); nothing is pulled (--pull=never).
# - npm in the build's RUN steps reaches the registry as npm does on this machine: same registry,
#   proxies and CA bundle (mounted read-only for the build only; the image keeps none of it).
# - podman passes this machine's proxy variables (HTTP_PROXY and the like) to the RUN steps itself.
# - Layers stay in podman's store, so a build after a change runs only the steps it affects.
# PODMAN_RUNTIME (runc by default) and the 1024 process limit suit machines whose cgroups crun
# refuses and whose limits cannot be raised. Open files: this shell's hard limit, at most 65536 and
# at least 1024: npm ci in the build failed once in two with EMFILE at 1024 on a fresh machine (its
# cache empty, every package fetched and unpacked at once).
set -euo pipefail
cd "$(dirname "$0")/../.."

TAG=${1:-catalog-inventory-read-api:local}
BASE_TAG=node:26-trixie-slim
RUNTIME=${PODMAN_RUNTIME:-runc}
nofile=$(ulimit -Hn)
{ [ "$nofile" = unlimited ] || [ "$nofile" -gt 65536 ]; } && nofile=65536
[ "$nofile" -lt 1024 ] && nofile=1024
podman=(podman --runtime "$RUNTIME")

base_hash=$(sha256sum scripts/image/build-base.sh | cut -d' ' -f1)
if ! "${podman[@]}" image exists "$BASE_TAG"; then
  echo "build: $BASE_TAG is missing: building the stand-in"
  BASE_TAG=$BASE_TAG bash scripts/image/build-base.sh
else
  label=$("${podman[@]}" image inspect --format '{{index .Labels "build-base.sha256"}}' "$BASE_TAG")
  if [ -n "$label" ] && [ "$label" != "<no value>" ] && [ "$label" != "$base_hash" ]; then
    echo "build: scripts/image/build-base.sh has changed: building $BASE_TAG again"
    BASE_TAG=$BASE_TAG bash scripts/image/build-base.sh
  fi
fi

# npm's own view of the registry, proxies and CA bundle, for the build's npm.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
npm_get() { local v; v=$(npm config get "$1" 2>/dev/null) || v=; [ "$v" = null ] || [ "$v" = undefined ] && v=; echo "$v"; }
volumes=()
{
  echo "registry=$(npm_get registry)"
  for key in proxy https-proxy noproxy; do
    value=$(npm_get "$key")
    [ -n "$value" ] && echo "$key=$value"
  done
  cafile=$(npm_get cafile)
  [ -z "$cafile" ] && cafile=${NODE_EXTRA_CA_CERTS:-}
  if [ -n "$cafile" ] && [ -r "$cafile" ]; then
    echo "cafile=/etc/ssl/certs/build-ca-bundle.crt"
    volumes+=(--volume "$(readlink -f "$cafile"):/etc/ssl/certs/build-ca-bundle.crt:ro")
  fi
} >"$work/npmrc"
# npm's global configuration file in the official image's layout ($PREFIX/etc/npmrc).
volumes+=(--volume "$work/npmrc:/usr/local/etc/npmrc:ro")

"${podman[@]}" build --pull=never --layers --network=host \
  --ulimit "nofile=$nofile:$nofile" --ulimit nproc=1024:1024 \
  "${volumes[@]}" \
  --tag "$TAG" .
