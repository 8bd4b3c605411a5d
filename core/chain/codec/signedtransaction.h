#pragma once

#include "chain/codec/decodeerror.h"
#include "chain/evm/evmtransaction.h"
#include "chain/family.h"
#include "chain/solana/solanatransaction.h"

#include <QByteArray>
#include <QString>
#include <variant>

namespace switchyard::chain {

// A signed transaction of either family, decoded from the exact bytes that are (or were) sent.
struct DecodedTransaction
{
    ChainFamily family = ChainFamily::Solana;
    QString id;     // Solana: first signature in base58; EVM: "0x" + keccak-256 of the bytes
    QString signer; // Solana: the fee payer; EVM: the recovered sender, once verified
    std::variant<solana::Transaction, evm::Transaction> details;
};

// Decodes and computes the id from the bytes alone; no signature is checked. Tracking calls this
// so that an id is never taken on trust from whoever stored the bytes.
DecodeResult<DecodedTransaction> decodeSignedTransaction(ChainFamily family, const QByteArray& raw);

// What a rebroadcast must pass: the bytes decode, their id is `expectedId` (when given), and
// they are signed as they are (Solana: every signature verifies; EVM: a sender is recovered,
// and equals `expectedSigner` when one is given, compared case-insensitively). The error says
// which check refused the bytes.
DecodeResult<DecodedTransaction> verifySignedTransaction(ChainFamily family, const QByteArray& raw,
                                                         const QString& expectedId = {},
                                                         const QString& expectedSigner = {});

// The checks of verifySignedTransaction on what decodeSignedTransaction gave, for a caller
// that needs the decoded transaction before it verifies: the bytes are decoded once.
DecodeResult<DecodedTransaction> verifyDecodedTransaction(DecodedTransaction decoded,
                                                          const QString& expectedId = {},
                                                          const QString& expectedSigner = {});

} // namespace switchyard::chain
