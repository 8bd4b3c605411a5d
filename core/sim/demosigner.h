#pragma once

#include <QByteArray>
#include <QString>

// The demo's sending application signs its own transactions, as a real one does before it hands
// them to Switchyard: Switchyard itself holds no keys and never signs. The tests sign with the
// same functions.
namespace switchyard::sim {

// A deterministic 32-byte secret from a small number (never zero, below both curves' orders).
QByteArray demoKey(int n);

// A legacy system-program transfer of `lamports` from the ed25519 key made from `seed` (32
// bytes) over `blockhash` (base58 of 32 bytes); different lamports give different signatures.
// Empty when the seed or the blockhash is not 32 bytes, or libsodium does not start.
QByteArray signSolanaTransfer(const QByteArray& seed, const QString& blockhash, quint64 lamports);

// An EIP-1559 (type 2) transfer of `value` wei from the secp256k1 key `secret` (32 bytes) at
// `nonce`: gas 21000, fees 1 and 2 gwei, to a fixed address. Two transfers from one key at one
// nonce compete for it. Empty when the key cannot sign.
QByteArray signEip1559Transfer(const QByteArray& secret, quint64 chainId, quint64 nonce,
                               quint64 value);

} // namespace switchyard::sim
