#!/usr/bin/env python3
"""Seed corpora for the fuzzers, made from the shared fixtures: one file per vector."""
import base64
import json
import os
import sys

fixtures, out = sys.argv[1], sys.argv[2]


def write(target, name, data):
    folder = os.path.join(out, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


with open(os.path.join(fixtures, "solana-wire-transactions.json")) as f:
    for i, v in enumerate(json.load(f)):
        write("fuzz_solana", f"solana-{i}", base64.b64decode(v["wireBase64"]))
        write("fuzz_base64", f"solana-{i}", v["wireBase64"].encode())
        for field in ("signature", "recentBlockhash", "feePayer"):
            write("fuzz_base58", f"{field}-{i}", v[field].encode())

with open(os.path.join(fixtures, "evm-raw-transactions.json")) as f:
    for i, v in enumerate(json.load(f)):
        raw = bytes.fromhex(v["raw"][2:])
        write("fuzz_evm", f"evm-{i}", raw)
        write("fuzz_rlp", f"evm-{i}", raw if raw[0] >= 0xC0 else raw[1:])
        write("fuzz_base64", f"hex-{i}", v["raw"].encode())
