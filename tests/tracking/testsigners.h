#pragma once

// Signs transactions for the tracking tests: Solana transfers over a blockhash the simulated
// cluster knows (so they can land, and expire by its block height), and EVM transfers from one
// key at chosen nonces (so another transaction can take a nonce).

#include "chain/codec/base58.h"
#include "chain/evm/rlp.h"

#include <QByteArray>
#include <QCryptographicHash>
#include <secp256k1.h>
#include <secp256k1_recovery.h>
#include <sodium.h>

namespace switchyard::testing {

inline QByteArray compactU16(int value)
{
    QByteArray out;
    do {
        quint8 byte = quint8(value & 0x7f);
        value >>= 7;
        if (value)
            byte |= 0x80;
        out.append(char(byte));
    } while (value);
    return out;
}

// A legacy system-program transfer of `lamports` from the key made from `seed` (32 bytes),
// over `blockhash` (base58). Different lamports give different signatures.
inline QByteArray signSolanaTransfer(const QByteArray& seed, const QString& blockhash,
                                     quint64 lamports)
{
    if (sodium_init() < 0)
        qFatal("libsodium did not start");
    unsigned char publicKey[crypto_sign_PUBLICKEYBYTES];
    unsigned char secretKey[crypto_sign_SECRETKEYBYTES];
    crypto_sign_seed_keypair(publicKey, secretKey,
                             reinterpret_cast<const unsigned char*>(seed.constData()));
    QByteArray message;
    message.append(char(1)).append(char(0)).append(char(1)); // 1 signer, system program read-only
    message.append(compactU16(3));
    message.append(reinterpret_cast<const char*>(publicKey), 32);
    message.append(QByteArray(32, '\x07')); // the recipient
    message.append(QByteArray(32, '\0'));   // the system program
    message.append(chain::base58Decode(blockhash).value());
    message.append(compactU16(1));
    message.append(char(2));
    message.append(compactU16(2)).append(char(0)).append(char(1));
    QByteArray data("\x02\x00\x00\x00", 4);
    for (int i = 0; i < 8; ++i)
        data.append(char((lamports >> (8 * i)) & 0xff));
    message.append(compactU16(int(data.size()))).append(data);

    unsigned char signature[crypto_sign_BYTES];
    crypto_sign_detached(signature, nullptr,
                         reinterpret_cast<const unsigned char*>(message.constData()),
                         quint64(message.size()), secretKey);
    QByteArray wire = compactU16(1);
    wire.append(reinterpret_cast<const char*>(signature), crypto_sign_BYTES);
    wire.append(message);
    return wire;
}

inline void appendRlpString(QByteArray& out, const QByteArray& bytes)
{
    if (bytes.size() == 1 && quint8(bytes.at(0)) < 0x80) {
        out.append(bytes);
        return;
    }
    chain::evm::appendRlpHeader(out, bytes.size(), false);
    out.append(bytes);
}

inline QByteArray withoutLeadingZeros(QByteArray bytes)
{
    while (!bytes.isEmpty() && bytes.at(0) == 0)
        bytes.remove(0, 1);
    return bytes;
}

// An EIP-1559 transfer of `value` wei from the key `secret` (32 bytes).
inline QByteArray signEvmTransfer(const QByteArray& secret, quint64 chainId, quint64 nonce,
                                  quint64 value)
{
    QByteArray fields;
    chain::evm::appendRlpUint(fields, chainId);
    chain::evm::appendRlpUint(fields, nonce);
    chain::evm::appendRlpUint(fields, 1'000'000'000);
    chain::evm::appendRlpUint(fields, 3'000'000'000);
    chain::evm::appendRlpUint(fields, 21000);
    appendRlpString(fields, QByteArray(20, '\x5a'));
    chain::evm::appendRlpUint(fields, value);
    appendRlpString(fields, QByteArray());
    chain::evm::appendRlpHeader(fields, 0, true);

    QByteArray payload("\x02", 1);
    chain::evm::appendRlpHeader(payload, fields.size(), true);
    payload.append(fields);
    const QByteArray digest = QCryptographicHash::hash(payload, QCryptographicHash::Keccak_256);

    secp256k1_context* context = secp256k1_context_create(SECP256K1_CONTEXT_NONE);
    secp256k1_ecdsa_recoverable_signature signature;
    unsigned char compact[64];
    int recoveryId = 0;
    const bool ok =
        secp256k1_ecdsa_sign_recoverable(
            context, &signature, reinterpret_cast<const unsigned char*>(digest.constData()),
            reinterpret_cast<const unsigned char*>(secret.constData()), nullptr, nullptr) == 1 &&
        secp256k1_ecdsa_recoverable_signature_serialize_compact(context, compact, &recoveryId,
                                                                &signature) == 1;
    secp256k1_context_destroy(context);
    if (!ok)
        qFatal("secp256k1 could not sign");
    chain::evm::appendRlpUint(fields, quint64(recoveryId));
    appendRlpString(fields,
                    withoutLeadingZeros(QByteArray(reinterpret_cast<const char*>(compact), 32)));
    appendRlpString(
        fields, withoutLeadingZeros(QByteArray(reinterpret_cast<const char*>(compact) + 32, 32)));
    QByteArray raw("\x02", 1);
    chain::evm::appendRlpHeader(raw, fields.size(), true);
    raw.append(fields);
    return raw;
}

// A deterministic 32-byte key from a small number (never zero, below the curve order).
inline QByteArray testKey(int n)
{
    QByteArray key(32, '\x11');
    key[31] = char(n & 0xff);
    key[30] = char((n >> 8) & 0xff);
    return key;
}

} // namespace switchyard::testing
