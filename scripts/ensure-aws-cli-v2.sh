#!/usr/bin/env bash
# Before CI's tests: the AWS CLI session test (packages/local-aws/test/foreign-clients) runs the v1 and the v2 CLI
# where the machine has them. The v1 CLI comes with the machine's Python; Debian's `awscli` package is v2: install it
# when no `aws` on the machine is v2 and apt can be used (root, or passwordless sudo). Otherwise say so and carry
# on — the test then skips the v2 session and says why. Nothing happens when a v2 CLI is already there.
set -uo pipefail
for candidate in $(type -ap aws) /usr/bin/aws /usr/local/bin/aws; do
  [ -x "$candidate" ] && "$candidate" --version 2>&1 | grep -q '^aws-cli/2\.' && exit 0
done
if [ "$(id -u)" -eq 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO=(sudo -n)
else
  echo "No AWS CLI v2 here, and apt needs root: the v2 CLI session will be skipped ('sudo apt-get install -y awscli' adds it)." >&2
  exit 0
fi
echo "Installing Debian's awscli (the AWS CLI v2) for the CLI session test (apt-get)…" >&2
"${SUDO[@]}" apt-get update -qq || true
DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -qq awscli >/dev/null ||
  echo "apt-get could not install awscli: the v2 CLI session will be skipped." >&2
exit 0
