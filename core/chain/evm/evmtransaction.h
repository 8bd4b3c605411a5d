#pragma once

#include "chain/codec/decodeerror.h"

#include <QByteArray>
#include <QString>
#include <optional>

namespace switchyard::chain::evm {

// What nodes accept over eth_sendRawTransaction (geth's txMaxSize).
inline constexpr qsizetype kMaxTransactionSize = 128 * 1024;
// EIP-2294's bound, which also keeps every chain id inside a signed 64-bit JSON number.
inline constexpr quint64 kMaxChainId = 9223372036854775771ULL;

// A signed raw transaction (what eth_sendRawTransaction receives): legacy (type 0, with the
// EIP-155 chain id folded into `v`), EIP-2930 (type 1), EIP-1559 (type 2) or EIP-7702 (type 4,
// set-code authorizations). Blob transactions (type 3) are not decoded: their network form
// carries the blobs and their hash is not that of the raw bytes. Unsigned 256-bit
// quantities are kept as minimal big-endian bytes; `toDecimal` prints them.
struct Transaction
{
    int type = 0;
    std::optional<quint64> chainId; // none only for a pre-EIP-155 legacy transaction
    quint64 nonce = 0;
    QByteArray gasPrice;             // types 0 and 1
    QByteArray maxPriorityFeePerGas; // types 2 and 4
    QByteArray maxFeePerGas;         // types 2 and 4
    quint64 gasLimit = 0;
    std::optional<QByteArray> to; // 20 bytes; none creates a contract
    QByteArray value;
    QByteArray data;
    int accessListSize = 0;     // entries (addresses) in the EIP-2930 access list
    int authorizationCount = 0; // EIP-7702 authorizations (type 4)
    int recoveryId = 0;         // y parity, 0 or 1
    QByteArray r;               // 32 bytes
    QByteArray s;               // 32 bytes, in the lower half of the curve order (EIP-2)
    QByteArray hash;            // keccak-256 of the raw bytes: the transaction id
    QByteArray signingHash;     // keccak-256 of what the sender signed
    qsizetype size = 0;

    QString id() const; // "0x" + hash in hex
};

// Strict decoding: the RLP is canonical, each field has its type and size (integers without
// leading zeros, nonce and gas below 2^64, addresses 20 bytes), the signature values lie in
// range, and nothing follows the transaction. Any type byte other than 0x01, 0x02 and 0x04 (and
// a legacy list) is reported as an unsupported transaction type.
DecodeResult<Transaction> decodeTransaction(const QByteArray& raw);

// The 20-byte address that signed the transaction (secp256k1 public key recovery).
DecodeResult<QByteArray> recoverSender(const Transaction& transaction);

// EIP-55 mixed-case checksum form of a 20-byte address ("0x…").
QString checksumAddress(const QByteArray& address);

// Big-endian unsigned bytes as a decimal string ("0" for no bytes).
QString toDecimal(const QByteArray& bigEndian);

} // namespace switchyard::chain::evm
