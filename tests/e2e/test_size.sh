#!/bin/bash
# fathom size: the default suite's mbedtls image, built but not run, split into components.
# The library must weigh more than the harness, and the components must add up to the image.
. "$(dirname "$0")/lib.sh"
need_toolchain
expect_exit 0 "$FATHOM" size --config mbedtls --format json
cp "$WORK/out" "$WORK/size.json"
check_json "$WORK/size.json" '
assert d["schema_version"] == 1
assert d["suite"] == "default"
assert [i["configuration"] for i in d["images"]] == ["mbedtls"], d["images"]
im = d["images"][0]
assert im["error"] is None, im["error"]
comps = {c["component"]: c for c in im["components"]}
assert comps["mbedtls"]["text_bytes"] > comps["harness"]["text_bytes"], comps
keys = ["text_bytes", "rodata_bytes", "data_bytes", "bss_bytes", "flash_bytes", "ram_bytes"]
for k in keys:
    assert sum(c[k] for c in comps.values()) == im["total"][k], k
for c in list(comps.values()) + [im["total"]]:
    assert c["flash_bytes"] == c["text_bytes"] + c["rodata_bytes"] + c["data_bytes"], c
    assert c["ram_bytes"] == c["data_bytes"] + c["bss_bytes"], c
assert im["total"]["text_bytes"] > 0 and im["stack_reserve_bytes"] > 0
for name in ["harness", "startup", "workloads", "libc"]:
    assert name in comps, (name, sorted(comps))
'
# The table for people: one row per component and a total row.
expect_exit 0 "$FATHOM" size --config mbedtls
grep -q "^mbedtls on " "$WORK/out" || fail "table lacks the image heading"
grep -Eq "^  total +[0-9]+" "$WORK/out" || fail "table lacks the total row"
grep -q "\.rodata" "$WORK/out" || fail "table lacks the .rodata column"
# An unknown configuration is a usage error.
expect_exit 2 "$FATHOM" size --config no-such-config
expect_err "unknown configuration"
echo PASS
