#!/usr/bin/env bash
# Makes haul_VERSION_ARCH.deb from a release binary built with the Swift runtime inside it
# (`make build`): the binary, its themes, the man page, bash, zsh and fish completions and the
# systemd user unit haul-daemon.service. It depends on Debian's own libraries only (found from
# the binary's links and the libraries it loads at run time, libcurl and libxml2), so it
# installs with `apt install ./haul_VERSION_ARCH.deb` on a machine without Swift.
#
# usage: contrib/deb.sh BINARY OUTPUT_DIRECTORY
set -euo pipefail

binary=$1
out=$2
[ -x "$binary" ] || { echo "deb.sh: no binary at $binary (make build makes it)" >&2; exit 1; }
# (No reader in these pipes stops early: with pipefail, a writer cut off would end the script.)
if ldd "$binary" | grep 'libswiftCore' > /dev/null; then
    echo "deb.sh: $binary loads the Swift runtime from the toolchain; make build links it in (--static-swift-stdlib)" >&2
    exit 1
fi
version=$("$binary" --version | sed -n '1s/^haul //p')
arch=$(dpkg --print-architecture)
name="haul_${version}_${arch}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root="$work/$name"

install -Dm755 "$binary" "$root/usr/bin/haul"
# The symbols a debugger wants, not the program: half the size.
strip --strip-unneeded "$root/usr/bin/haul"
# The BitTorrent engine, which haul loads from ../lib/haul/ the first time a torrent is asked for.
engine="$(dirname "$binary")/libHaulTorrentEngine.so"
[ -f "$engine" ] || { echo "deb.sh: no torrent engine at $engine (make build makes it)" >&2; exit 1; }
install -Dm644 "$engine" "$root/usr/lib/haul/libHaulTorrentEngine.so"
strip --strip-unneeded "$root/usr/lib/haul/libHaulTorrentEngine.so"
install -d "$root/usr/share/haul/themes"
install -m644 Themes/*.toml "$root/usr/share/haul/themes/"
install -d "$root/usr/share/man/man1"
"$binary" --generate-manual | gzip -9n > "$root/usr/share/man/man1/haul.1.gz"
install -d "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
    "$root/usr/share/fish/vendor_completions.d"
"$binary" --generate-completion-script bash > "$root/usr/share/bash-completion/completions/haul"
"$binary" --generate-completion-script zsh > "$root/usr/share/zsh/vendor-completions/_haul"
"$binary" --generate-completion-script fish > "$root/usr/share/fish/vendor_completions.d/haul.fish"
install -d "$root/usr/lib/systemd/user"
sed 's|@BINDIR@|/usr/bin|' contrib/haul-daemon.service > "$root/usr/lib/systemd/user/haul-daemon.service"
install -d "$root/usr/share/doc/haul"
install -m644 README.md "$root/usr/share/doc/haul/README.md"
gzip -9nc CHANGELOG.md > "$root/usr/share/doc/haul/changelog.gz"

# The Debian package of each library: those the binary links, and those it loads at run time.
package_of() {
    local path
    path=$(readlink -f "$1")
    for candidate in "$1" "$path" "${path#/usr}" "/usr$path"; do
        if owner=$(dpkg -S "$candidate" 2>/dev/null); then
            echo "${owner%%:*}" | cut -d, -f1
            return
        fi
    done
    echo "deb.sh: no Debian package holds $1" >&2
    exit 1
}
# One ldd a file: given two, it heads each list with the file's name.
libraries=$( (ldd "$binary"; ldd "$engine") | awk '$3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }')
for loaded in libcurl.so.4 libxml2.so.2; do
    libraries+=$'\n'$(ldconfig -p | awk -v lib="$loaded" '$1 == lib && !found { print $NF; found = 1 }')
done
depends=""
for package in $(for library in $libraries; do package_of "$library"; done | sort -u); do
    case "$package" in
        libcurl4*) depends+="${depends:+, }$package (>= 7.68)" ;;
        *) depends+="${depends:+, }$package" ;;
    esac
done

install -d "$root/DEBIAN"
cat > "$root/DEBIAN/control" <<CONTROL
Package: haul
Version: $version
Architecture: $arch
Maintainer: haul developers <haul@localhost>
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Depends: $depends
Section: net
Priority: optional
Description: terminal download manager with a live queue and aria2's JSON-RPC
 haul downloads many or large files from a terminal: a live queue steered from
 the keyboard, automatic splitting over many connections, resume that never
 mixes two versions of a file, aria2's queue files, options and JSON-RPC (AriaNg,
 aria2p), and a daemon run as a systemd user service (haul-daemon).
CONTROL

mkdir -p "$out"
dpkg-deb --root-owner-group --build "$root" "$out/$name.deb" >/dev/null
echo "$out/$name.deb"
