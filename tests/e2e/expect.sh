#!/usr/bin/env bash
# expect.sh CODE REGEX COMMAND...: runs COMMAND, passes when it exits with CODE and its combined
# output matches the extended regular expression REGEX.
code=$1; regex=$2; shift 2
out=$("$@" 2>&1); rc=$?
echo "$out" | tail -n 40
if [ "$rc" -ne "$code" ]; then echo "FAIL: exit code $rc, expected $code"; exit 1; fi
if ! echo "$out" | grep -Eq -- "$regex"; then echo "FAIL: output does not match /$regex/"; exit 1; fi
echo "PASS"
