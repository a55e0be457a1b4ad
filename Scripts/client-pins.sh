#!/usr/bin/env bash
# What an app that adds this package pays for each product: for every library product an app
# picks, the client package Examples/Client (the README's `.package(url:from:)` line, no traits)
# is resolved, and its Package.resolved is counted (the pins besides this package itself): none
# for the products with no trait, or the script fails. The products behind a trait are resolved
# with it on, to show what they fetch. The clients of Statecharts and StatechartsSCXML are then
# built, timed, and every module the build compiled is checked to be one of this package's or the
# client's own.
#
# The package is given by URL, as an app gives it: a copy of the working tree (tracked and
# untracked files, not ignored ones) committed in a temporary repository and tagged 0.2.0,
# the version the README's line asks for.
#
#   Scripts/client-pins.sh            # the table, and the two builds
#   Scripts/client-pins.sh --no-build # the table only
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build=1
[[ "${1:-}" == "--no-build" ]] && build=0

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The package as a versioned repository.
repository="$work/Statecharts"
mkdir -p "$repository"
(cd "$root" && git ls-files -z --cached --others --exclude-standard | xargs -0 tar -cf - --no-recursion) |
  tar -xf - -C "$repository"
git -C "$repository" init -q
git -C "$repository" add -A
git -C "$repository" -c user.name=clients -c user.email=clients@localhost commit -q -m "the package as a client sees it"
git -C "$repository" tag 0.2.0

# This package's own targets: a module of any other name in a client's build came from elsewhere.
own_modules="$(cd "$root" && swift package --scratch-path "$work/dump" dump-package | python3 -c '
import json, sys
print("\n".join(t["name"].replace("-", "_") for t in json.load(sys.stdin)["targets"]))')"

failed=0
printf '| Product | Packages pinned besides Statecharts | First debug build | Modules compiled from other packages |\n'
printf '|---|---|---|---|\n'
# A product, or a product and the trait it needs (the line then ends `traits: [.defaults, "TRAIT"]`).
for entry in Statecharts StatechartsSCXML StatechartsTesting StatechartsBluetooth StatechartsLogging:Logging \
  StatechartsHTTP:HTTP StatechartsInspector:Inspector StatechartsStore:Store; do
  product="${entry%%:*}"
  trait=""
  [[ "$entry" == *:* ]] && trait="${entry#*:}"
  client="$work/client-$product"
  cp -R "$root/Examples/Client" "$client"
  rm -rf "$client/.build" "$client/Package.resolved"
  sed -i "s|https://github.com/…/Statecharts|file://$repository|; s|.product(name: \"Statecharts\"|.product(name: \"$product\"|" \
    "$client/Package.swift"
  if [[ -n "$trait" ]]; then
    sed -i "s|from: \"0.2.0\")|from: \"0.2.0\", traits: [.defaults, \"$trait\"])|" "$client/Package.swift"
    grep -q "traits: \[.defaults, \"$trait\"\]" "$client/Package.swift"
  fi
  echo "import $product" >"$client/Sources/App/App.swift"
  grep -q "file://$repository" "$client/Package.swift" && grep -q "\"$product\"" "$client/Package.swift"
  (cd "$client" && swift package resolve >"$client/resolve.log" 2>&1) || {
    cat "$client/resolve.log" >&2
    exit 1
  }
  pins="$(python3 -c '
import json, sys
pins = json.load(open(sys.argv[1]))["pins"]
others = sorted(p["identity"] for p in pins if p["identity"] != "statecharts")
# Named when few; many are SwiftNIO and what it builds on.
print(len(others), ", ".join(others) if len(others) <= 3 else ", ".join(others[:3]) + ", …")' "$client/Package.resolved")"
  count="${pins%% *}"
  names="${pins#* }"
  [[ "$count" == "0" ]] && names="" || names=" ($names)"
  # A product with no trait fetches nothing; one behind a trait fetches what it builds on.
  [[ -n "$trait" || "$count" == "0" ]] || failed=1
  if [[ "$product" == Statecharts || "$product" == StatechartsSCXML ]]; then
    if [[ $build == 1 ]]; then
      start=$(date +%s)
      (cd "$client" && swift build >"$client/build.log" 2>&1) || {
        cat "$client/build.log" >&2
        exit 1
      }
      seconds=$(($(date +%s) - start))
      compiled="$(find -H "$client/.build/debug" -maxdepth 1 -name '*.build' -type d -printf '%f\n' | sed -e 's/\.build$//' -e 's/-tool$//' | sort -u)"
      foreign="$(comm -23 <(echo "$compiled") <(printf '%s\nApp\n' "$own_modules" | sort))"
      [[ -z "$foreign" ]] || failed=1
      # (A `-tool` module is one of this package's built for the host: SwiftPM builds the executable
      # of the package's build plugin, statechart-generate, for a client of StatechartsSCXML too.)
      # The check sees the build: the package's own modules are there.
      grep -qx "$product" <<<"$compiled" || failed=1
      printf '| %s | %s%s | %d s | %s |\n' "$product" "$count" "$names" "$seconds" "${foreign:-none}"
      continue
    fi
  fi
  label="$product"
  [[ -n "$trait" ]] && label="$product, trait $trait"
  printf '| %s | %s%s | | |\n' "$label" "$count" "$names"
done
if [[ $failed == 1 ]]; then
  echo "client-pins: a client of a product with no trait pins another package, or one of Statecharts or" >&2
  echo "StatechartsSCXML compiles a module of another package" >&2
  exit 1
fi
