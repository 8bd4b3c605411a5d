#pragma once

#include "config/config.h"
#include "tracking/trackedtransaction.h"

#include <QList>
#include <QString>

namespace switchyard::tracking {

// What applies to every input that does not say otherwise (the command line's --network,
// --intent and --last-valid-block-height, or the import dialog's fields).
struct ImportDefaults
{
    QString network;
    QString intentId;
    std::optional<qint64> lastValidBlockHeight;
};

struct ImportError
{
    int line = 0;  // 1-based line of the input
    QString field; // the JSON field at fault, when there is one
    QString message;

    QString text() const; // "line 3, field \"raw\": ..." or "line 3: ..."
};

struct ImportedTransaction
{
    TrackedTransaction record; // state Imported, created at the import's time
    int line = 0;
};

struct ImportResult
{
    QList<ImportedTransaction> transactions;
    QList<ImportError> errors;

    bool ok() const { return errors.isEmpty(); }
};

// Reads transactions to track, one per line (empty lines and lines starting with '#' are
// skipped; base64 wrapped over lines is one transaction: importEntries). A line is either
// - text: signed bytes as base64 or base58 (Solana wire bytes) or 0x hex (an EVM raw
//   transaction), or a bare id to watch (a base58 signature of 64 bytes, a 0x hash of 32 bytes);
// - a JSON object with `network`, `intentId`, `wireBase64` or `raw` (0x hex for EVM, base58 or
//   base64 for Solana), `lastValidBlockHeight`, and optionally the id it claims (`id`,
//   `signature` or `hash`) and signer (`from` / `feePayer`). Other fields are ignored.
// The id is always computed from the bytes, whose signatures must verify; a stated id or signer
// that disagrees refuses the line, naming both. An EVM transaction signed for another chain id
// than its network's is refused. The family comes from the network (the line's, else the
// default, else the only configured network of the family the text shows). Every line is
// judged on its own: good lines are returned even when others are refused. An id on two lines
// is one transaction with what both give (mergeDetails); a detail they give with other values
// refuses the second line, naming both.
ImportResult importTransactions(const QString& text, const QList<NetworkConfig>& networks,
                                const ImportDefaults& defaults, qint64 nowMs);

// The same for a file; an unreadable or oversized file is one error at line 0.
ImportResult importTransactionFile(const QString& path, const QList<NetworkConfig>& networks,
                                   const ImportDefaults& defaults, qint64 nowMs);

} // namespace switchyard::tracking
