#!/usr/bin/env bash
# Type-checks the core library (the product Statecharts) for Apple platforms at the package's
# minimums, macOS 14 and iOS 17, on Linux, where no Apple SDK exists: an API that needs a newer
# system (such as Synchronization's Atomic, macOS 15 and iOS 18) is then an error, as in Xcode.
#
# How, since no Apple SDK is here:
# - the toolchain's standard library, _Concurrency, _StringProcessing, Synchronization and
#   Observation are rebuilt for each Apple target from their Linux .swiftinterface files, which
#   carry Apple's availability (`@available(macOS 15.0, iOS 18.0, ...)`) as written in the sources
#   (the interface's target is replaced, `@backDeployed` attributes and the Linux-only calls in
#   inlinable code are dropped, and the interfaces are built without availability checks of
#   their own);
# - the two system modules the core imports beyond those, Foundation (for JSONEncoder and
#   JSONDecoder) and Darwin (for pthread mutexes), are the stand-ins in Scripts/availability/,
#   with Apple's signatures and availability;
# - the core's sources are then type-checked for the target.
#
# tvOS 17, watchOS 10 and visionOS 1 share these minimums' line of the standard library's
# availability (Swift 5.9), so macOS and iOS stand for them. The other products import much more
# of Foundation, which has no textual interface on Linux: Evolution/0016 audits them.
#
# iOS is checked as its simulator on this machine's architecture (the interfaces here are built for
# it: x86_64's have Float80), with the same availability as a device.
#
#   Scripts/availability.sh    # both targets; prints each error as the compiler writes it
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
linux="$(dirname "$(dirname "$(command -v swiftc)")")/lib/swift/linux"
shims="$(dirname "$linux")/shims"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The interfaces are this machine's architecture's; the Apple targets take the same one.
arch="$(uname -m)"
[[ "$arch" == aarch64 ]] && apple_arch=arm64 || apple_arch="$arch"

failed=0
for target in "$apple_arch-apple-macos14" "$apple_arch-apple-ios17.0-simulator"; do
  modules="$work/$target"
  mkdir -p "$modules"
  for module in Swift SwiftOnoneSupport _Concurrency _RegexParser _StringProcessing Synchronization Observation; do
    interface="$modules/$module.swiftinterface"
    sed -E -e "s/-target [a-z0-9_]+-unknown-linux-gnu/-target $target/" \
      -e 's/@backDeployed\(before: [^)]*\)//g' \
      -e 's/^import Glibc$//' \
      -e 's/_swift_stdlib_gettid\(\)/UInt32(0)/g' \
      "$linux/$module.swiftmodule/$arch-unknown-linux-gnu.swiftinterface" >"$interface"
    flags=()
    head -3 "$interface" | grep -q -- "-parse-stdlib" && flags+=(-parse-stdlib)
    swiftc -frontend -compile-module-from-interface "$interface" -module-name "$module" -target "$target" \
      -disable-availability-checking "${flags[@]}" -o "$modules/$module.swiftmodule" -I "$modules" -I "$shims" \
      >"$modules/$module.log" 2>&1 || {
      cat "$modules/$module.log" >&2
      echo "availability: $module could not be rebuilt for $target" >&2
      exit 1
    }
  done
  for module in Foundation Darwin; do
    swiftc -emit-module -target "$target" -nostdimport -I "$modules" -I "$shims" -module-name "$module" \
      -parse-as-library -enable-library-evolution -o "$modules/$module.swiftmodule" \
      "$root/Scripts/availability/$module.swift"
  done
  if swiftc -typecheck -target "$target" -Xfrontend -disable-objc-interop -nostdimport -I "$modules" -I "$shims" \
    -module-name Statecharts -package-name statecharts -parse-as-library -swift-version 6 \
    $(find "$root/Sources/Statecharts" -name '*.swift' | sort) 2>"$modules/check.log"; then
    echo "availability: Statecharts type-checks for $target"
  else
    grep -E "error:" "$modules/check.log" | grep -v "^ " >&2 || cat "$modules/check.log" >&2
    echo "availability: Statecharts does not type-check for $target" >&2
    failed=1
  fi
done
exit $failed
