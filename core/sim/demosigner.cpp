#include "demosigner.h"

#include "chain/codec/base58.h"
#include "chain/evm/rlp.h"

#include <QCryptographicHash>
#include <secp256k1.h>
#include <secp256k1_recovery.h>
#include <sodium.h>

namespace switchyard::sim {

namespace {

QByteArray compactU16(int value)
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

void appendRlpBytes(QByteArray& out, const QByteArray& bytes)
{
    if (bytes.size() == 1 && quint8(bytes.at(0)) < 0x80) {
        out.append(bytes);
        return;
    }
    chain::evm::appendRlpHeader(out, bytes.size(), false);
    out.append(bytes);
}

QByteArray minimalBytes(QByteArray bytes)
{
    while (!bytes.isEmpty() && bytes.at(0) == 0)
        bytes.remove(0, 1);
    return bytes;
}

const unsigned char* unsignedData(const QByteArray& bytes)
{
    return reinterpret_cast<const unsigned char*>(bytes.constData());
}

} // namespace

QByteArray demoKey(int n)
{
    QByteArray key(32, '\x11');
    key[31] = char(n & 0xff);
    key[30] = char((n >> 8) & 0xff);
    return key;
}

QByteArray signSolanaTransfer(const QByteArray& seed, const QString& blockhash, quint64 lamports)
{
    const chain::DecodeResult<QByteArray> hash = chain::base58Decode(blockhash);
    if (seed.size() != crypto_sign_SEEDBYTES || !hash || hash->size() != 32 || sodium_init() < 0)
        return {};
    unsigned char publicKey[crypto_sign_PUBLICKEYBYTES];
    unsigned char secretKey[crypto_sign_SECRETKEYBYTES];
    crypto_sign_seed_keypair(publicKey, secretKey, unsignedData(seed));

    QByteArray message;
    message.append(char(1)).append(char(0)).append(char(1)); // 1 signer, system program read-only
    message.append(compactU16(3));
    message.append(reinterpret_cast<const char*>(publicKey), crypto_sign_PUBLICKEYBYTES);
    message.append(QByteArray(32, '\x07')); // the recipient
    message.append(QByteArray(32, '\0'));   // the system program
    message.append(*hash);
    message.append(compactU16(1));
    message.append(char(2));
    message.append(compactU16(2)).append(char(0)).append(char(1));
    QByteArray data("\x02\x00\x00\x00", 4); // SystemInstruction::Transfer
    for (int i = 0; i < 8; ++i)
        data.append(char((lamports >> (8 * i)) & 0xff));
    message.append(compactU16(int(data.size()))).append(data);

    unsigned char signature[crypto_sign_BYTES];
    crypto_sign_detached(signature, nullptr, unsignedData(message), quint64(message.size()),
                         secretKey);
    sodium_memzero(secretKey, sizeof secretKey);
    QByteArray wire = compactU16(1);
    wire.append(reinterpret_cast<const char*>(signature), crypto_sign_BYTES);
    wire.append(message);
    return wire;
}

QByteArray signEip1559Transfer(const QByteArray& secret, quint64 chainId, quint64 nonce,
                               quint64 value)
{
    if (secret.size() != 32)
        return {};
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

    QByteArray unsignedTx("\x02", 1);
    chain::evm::appendRlpHeader(unsignedTx, fields.size(), true);
    unsignedTx.append(fields);
    const QByteArray digest = QCryptographicHash::hash(unsignedTx, QCryptographicHash::Keccak_256);

    secp256k1_context* context = secp256k1_context_create(SECP256K1_CONTEXT_NONE);
    secp256k1_ecdsa_recoverable_signature signature;
    unsigned char compact[64];
    int recoveryId = 0;
    const bool signedOk =
        secp256k1_ecdsa_sign_recoverable(context, &signature, unsignedData(digest),
                                         unsignedData(secret), nullptr, nullptr) == 1 &&
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

} // namespace switchyard::sim
