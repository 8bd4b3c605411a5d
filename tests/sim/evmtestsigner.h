#pragma once

// Signs EIP-1559 transfers with libsecp256k1 for the simulator's tests: the fixtures never
// reuse a sender, and replacement by nonce needs two transactions from one key.

#include "chain/evm/rlp.h"

#include <QByteArray>
#include <QCryptographicHash>
#include <secp256k1.h>
#include <secp256k1_recovery.h>

namespace switchyard::sim::test {

inline void appendRlpBytes(QByteArray& out, const QByteArray& bytes)
{
    if (bytes.size() == 1 && static_cast<quint8>(bytes.at(0)) < 0x80) {
        out.append(bytes);
        return;
    }
    chain::evm::appendRlpHeader(out, bytes.size(), false);
    out.append(bytes);
}

inline QByteArray minimalBytes(QByteArray bytes)
{
    while (!bytes.isEmpty() && bytes.at(0) == 0)
        bytes.remove(0, 1);
    return bytes;
}

// A type-2 transfer of `value` wei from the key `secret` (32 bytes), gas 21000, fees 1/2 gwei.
// Empty on a signing failure.
inline QByteArray signEip1559Transfer(const QByteArray& secret, quint64 chainId, quint64 nonce,
                                      quint64 value)
{
    QByteArray fields;
    chain::evm::appendRlpUint(fields, chainId);
    chain::evm::appendRlpUint(fields, nonce);
    chain::evm::appendRlpUint(fields, 1'000'000'000);
    chain::evm::appendRlpUint(fields, 2'000'000'000);
    chain::evm::appendRlpUint(fields, 21000);
    appendRlpBytes(fields, QByteArray(20, '\x42'));
    chain::evm::appendRlpUint(fields, value);
    appendRlpBytes(fields, QByteArray());
    chain::evm::appendRlpHeader(fields, 0, true); // empty access list

    QByteArray unsigned_("\x02", 1);
    chain::evm::appendRlpHeader(unsigned_, fields.size(), true);
    unsigned_.append(fields);
    const QByteArray digest = QCryptographicHash::hash(unsigned_, QCryptographicHash::Keccak_256);

    secp256k1_context* context = secp256k1_context_create(SECP256K1_CONTEXT_NONE);
    secp256k1_ecdsa_recoverable_signature signature;
    unsigned char compact[64];
    int recoveryId = 0;
    const bool signedOk =
        secp256k1_ecdsa_sign_recoverable(
            context, &signature, reinterpret_cast<const unsigned char*>(digest.constData()),
            reinterpret_cast<const unsigned char*>(secret.constData()), nullptr, nullptr) == 1 &&
        secp256k1_ecdsa_recoverable_signature_serialize_compact(context, compact, &recoveryId,
                                                                &signature) == 1;
    secp256k1_context_destroy(context);
    if (!signedOk)
        return {};

    chain::evm::appendRlpUint(fields, quint64(recoveryId));
    appendRlpBytes(fields, minimalBytes(QByteArray(reinterpret_cast<const char*>(compact), 32)));
    appendRlpBytes(fields,
                   minimalBytes(QByteArray(reinterpret_cast<const char*>(compact) + 32, 32)));
    QByteArray raw("\x02", 1);
    chain::evm::appendRlpHeader(raw, fields.size(), true);
    raw.append(fields);
    return raw;
}

} // namespace switchyard::sim::test
