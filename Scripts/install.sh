#!/usr/bin/env bash
# Installs the statechart tool under a prefix, with its man page and shell completions:
#
#   Scripts/install.sh [--prefix DIR] [--binary PATH]
#
#   PREFIX/bin/statechart
#   PREFIX/share/man/man1/statechart.1                      (from the commands' own help)
#   PREFIX/share/bash-completion/completions/statechart
#   PREFIX/share/zsh/site-functions/_statechart
#   PREFIX/share/fish/vendor_completions.d/statechart.fish
#
# --prefix is /usr/local by default. Without --binary the tool is built in release mode first (a
# few minutes on two cores; the C libraries it needs are installed by Scripts/system-libraries.sh);
# --binary installs one built already, such as `$(swift build --show-bin-path)/statechart`.
#
# The man page is written by swift-argument-parser's generate-manual, built from the package's own
# checkout of swift-argument-parser into .build/manual-tools, from the tool's
# --experimental-dump-help: it lists every command and option as --help does.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
prefix=/usr/local
binary=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --prefix) prefix="${2:?--prefix needs a folder}"; shift 2 ;;
    --prefix=*) prefix="${1#--prefix=}"; shift ;;
    --binary) binary="${2:?--binary needs a path}"; shift 2 ;;
    --binary=*) binary="${1#--binary=}"; shift ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown argument '$1' (see --help)" >&2; exit 64 ;;
  esac
done

cd "$root"
if [[ -z "$binary" ]]; then
  Scripts/system-libraries.sh
  swift build --enable-all-traits -c release --product statechart >&2
  binary="$(swift build --enable-all-traits -c release --show-bin-path)/statechart"
fi
if [[ ! -x "$binary" ]]; then
  echo "install.sh: '$binary' is not an executable" >&2
  exit 1
fi

# generate-manual, from the checkout SwiftPM resolved for this package.
swift package --enable-all-traits resolve >/dev/null
parser=".build/checkouts/swift-argument-parser"
if [[ ! -d "$parser/Tools/generate-manual" ]]; then
  echo "install.sh: $parser has no generate-manual tool" >&2
  exit 1
fi
swift build --package-path "$parser" --scratch-path .build/manual-tools --product generate-manual >&2
generator="$(swift build --package-path "$parser" --scratch-path .build/manual-tools --show-bin-path)/generate-manual"

pages="$(mktemp -d)"
trap 'rm -rf "$pages"' EXIT
# The date of the last commit, so that the same commit gives the same page.
date="$(git -C "$root" log -1 --format=%cs 2>/dev/null || date -u +%F)"
"$generator" "$binary" --date "$date" --output-directory "$pages"

install -d "$prefix/bin" "$prefix/share/man/man1" "$prefix/share/bash-completion/completions" \
  "$prefix/share/zsh/site-functions" "$prefix/share/fish/vendor_completions.d"
install -m 755 "$binary" "$prefix/bin/statechart"
install -m 644 "$pages/statechart.1" "$prefix/share/man/man1/statechart.1"
"$prefix/bin/statechart" --generate-completion-script bash >"$prefix/share/bash-completion/completions/statechart"
"$prefix/bin/statechart" --generate-completion-script zsh >"$prefix/share/zsh/site-functions/_statechart"
"$prefix/bin/statechart" --generate-completion-script fish >"$prefix/share/fish/vendor_completions.d/statechart.fish"

echo "installed: $prefix/bin/statechart ($("$prefix/bin/statechart" --version)), its man page (man statechart) and bash, zsh and fish completions"
