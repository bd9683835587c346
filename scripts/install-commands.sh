#!/bin/sh
# Puts `deno` and `cudeno` (this checkout's command line, src/cli/main.ts) on the PATH of new login
# shells: a `cudeno` launcher script, and a link to the Deno in use unless a login shell already finds
# one, go into ~/.local/bin (CUDENO_BIN_DIR chooses another folder); when a login shell does not have
# that folder on its PATH, one line adding it goes into the shell's profile (~/.profile, or
# ~/.bash_profile, ~/.bash_login or ~/.zprofile where that is what the shell reads). Says what it did.
# Run by demo.sh; safe to run again (after moving the checkout, or to pick up another Deno).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/scripts/ensure-tools.sh"
bin="${CUDENO_BIN_DIR:-$HOME/.local/bin}"
deno_bin=$(command -v deno)
deno_real=$(readlink -f "$deno_bin" 2>/dev/null || echo "$deno_bin")
login_shell="${SHELL:-/bin/sh}"
[ -x "$login_shell" ] || login_shell=/bin/sh

# Whether a new login shell, started with nothing of this process's environment but HOME, USER and
# SHELL, finds the command $1.
login_finds() {
  env -i HOME="$HOME" USER="${USER:-}" LOGNAME="${LOGNAME:-${USER:-}}" SHELL="$login_shell" TERM=dumb \
    "$login_shell" -lc "command -v $1" </dev/null >/dev/null 2>&1
}

mkdir -p "$bin"
launcher="$bin/cudeno"
cat >"$launcher.tmp" <<EOF
#!/bin/sh
# cudeno's command line from the checkout at $root (written by scripts/install-commands.sh;
# run that again after moving the checkout). --config keeps the checkout's lock file in use.
exec "$deno_real" run -A --config "$root/deno.json" "$root/src/cli/main.ts" "\$@"
EOF
chmod +x "$launcher.tmp"
mv -f "$launcher.tmp" "$launcher"
echo "install-commands: wrote $launcher (runs $root/src/cli/main.ts)"

if [ "$(readlink -f "$bin/deno" 2>/dev/null || true)" = "$deno_real" ]; then
  echo "install-commands: $bin/deno already is $deno_real"
elif [ -e "$bin/deno" ] && [ ! -L "$bin/deno" ]; then
  echo "install-commands: kept $bin/deno (not a link made here)"
elif login_finds deno && [ ! -L "$bin/deno" ]; then
  echo "install-commands: a login shell already finds deno; no link made"
else
  ln -sfn "$deno_real" "$bin/deno"
  echo "install-commands: linked $bin/deno -> $deno_real"
fi

if login_finds cudeno; then
  echo "install-commands: a new login shell finds deno and cudeno ($bin is on its PATH)"
  exit 0
fi
case "$(basename "$login_shell")" in
  bash)
    profile="$HOME/.profile"
    [ -e "$HOME/.bash_login" ] && profile="$HOME/.bash_login"
    [ -e "$HOME/.bash_profile" ] && profile="$HOME/.bash_profile"
    ;;
  zsh) profile="$HOME/.zprofile" ;;
  sh | dash | ksh | mksh | ash) profile="$HOME/.profile" ;;
  *)
    echo "install-commands: add $bin to your PATH in $login_shell's start-up file (it is not one this script edits)"
    exit 0
    ;;
esac
line="case \":\$PATH:\" in *\":$bin:\"*) ;; *) PATH=\"$bin:\$PATH\"; export PATH ;; esac # cudeno: deno and cudeno"
if ! grep -qF "$line" "$profile" 2>/dev/null; then
  printf '\n%s\n' "$line" >>"$profile"
fi
if login_finds cudeno; then
  echo "install-commands: added $bin to PATH in $profile; new login shells find deno and cudeno"
  echo "install-commands: in this shell, run: export PATH=\"$bin:\$PATH\""
else
  echo "install-commands: added $bin to PATH in $profile, but a new login shell still does not find cudeno;" \
    "add $bin to your PATH by hand" >&2
  exit 1
fi
