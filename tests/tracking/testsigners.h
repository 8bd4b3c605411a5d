#pragma once

// Signs transactions for the tracking tests: Solana transfers over a blockhash the simulated
// cluster knows (so they can land, and expire by its block height), and EVM transfers from one
// key at chosen nonces (so another transaction can take a nonce), with the simulator tests'
// EIP-1559 signer (tests/sim/evmtestsigner.h).

#include "chain/codec/base58.h"
#include "evmtestsigner.h"

#include <QByteArray>
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

// A deterministic 32-byte key from a small number (never zero, below the curve order).
inline QByteArray testKey(int n)
{
    QByteArray key(32, '\x11');
    key[31] = char(n & 0xff);
    key[30] = char((n >> 8) & 0xff);
    return key;
}

} // namespace switchyard::testing
