#include "transactionsummary.h"

#include "chain/codec/base58.h"
#include "chain/evm/evmtransaction.h"
#include "chain/solana/solanatransaction.h"

#include <vector>

namespace switchyard::chain {

namespace {

// The Solana base fee, per signature; a priority fee (Compute Budget) comes on top.
constexpr quint64 kLamportsPerSignature = 5'000;
constexpr quint32 kSystemTransfer = 2; // System Program instruction index

// Digits in groups of three, so a fee in wei can be read at a glance.
QString grouped(const QString& digits)
{
    QString out;
    for (qsizetype i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += QChar(0x202F); // narrow no-break space
        out += digits[i];
    }
    return out;
}

QString grouped(quint64 value)
{
    return grouped(QString::number(value));
}

quint64 littleEndian(const QByteArray& bytes, qsizetype offset, int size)
{
    quint64 value = 0;
    for (int i = size - 1; i >= 0; --i)
        value = (value << 8) | static_cast<quint8>(bytes[offset + i]);
    return value;
}

// `digits` (a whole number of the smallest unit) in whole units of 10^decimals.
QString inWholeUnits(const QString& digits, int decimals)
{
    QString padded = digits.rightJustified(decimals + 1, QLatin1Char('0'));
    QString whole = padded.left(padded.size() - decimals);
    QString fraction = padded.right(decimals);
    while (fraction.endsWith(QLatin1Char('0')))
        fraction.chop(1);
    return fraction.isEmpty() ? whole : whole + QLatin1Char('.') + fraction;
}

// A big-endian unsigned number times a 64-bit one, big-endian.
QByteArray multiplied(const QByteArray& bigEndian, quint64 factor)
{
    std::vector<quint64> sums(std::size_t(bigEndian.size()) + 8, 0);
    for (qsizetype i = 0; i < bigEndian.size(); ++i) {
        const quint64 digit = static_cast<quint8>(bigEndian[bigEndian.size() - 1 - i]);
        for (int j = 0; j < 8; ++j)
            sums[std::size_t(i + j)] += digit * ((factor >> (8 * j)) & 0xff);
    }
    QByteArray out(qsizetype(sums.size()), '\0');
    quint64 carry = 0;
    for (std::size_t k = 0; k < sums.size(); ++k) {
        const quint64 total = sums[k] + carry;
        out[out.size() - 1 - qsizetype(k)] = static_cast<char>(total & 0xff);
        carry = total >> 8;
    }
    return out;
}

QString lamports(quint64 amount)
{
    return QStringLiteral("%1 lamports (%2 SOL)")
        .arg(grouped(amount), inWholeUnits(QString::number(amount), 9));
}

QString wei(const QString& digits)
{
    return QStringLiteral("%1 wei (%2 in whole coins)")
        .arg(grouped(digits), inWholeUnits(digits, 18));
}

TransactionSummary summarizeSolana(const QByteArray& wire)
{
    TransactionSummary summary;
    const auto decoded = solana::decodeTransaction(wire);
    if (!decoded) {
        summary.error = decoded.error().message;
        return summary;
    }
    const solana::Transaction& tx = *decoded;
    const QByteArray systemProgram(32, '\0');
    QStringList recipients;
    quint64 total = 0;
    int transfers = 0;
    for (const solana::CompiledInstruction& instruction : tx.instructions) {
        if (instruction.programIdIndex >= tx.accountKeys.size() ||
            tx.accountKeys[instruction.programIdIndex] != systemProgram ||
            instruction.data.size() != 12 ||
            littleEndian(instruction.data, 0, 4) != kSystemTransfer ||
            instruction.accountIndexes.size() < 2)
            continue;
        const auto to = static_cast<quint8>(instruction.accountIndexes[1]);
        if (to < tx.accountKeys.size() && !recipients.contains(base58Encode(tx.accountKeys[to])))
            recipients.append(base58Encode(tx.accountKeys[to]));
        total += littleEndian(instruction.data, 4, 8);
        ++transfers;
    }
    const qsizetype others = tx.instructions.size() - transfers;
    summary.fields.append({QStringLiteral("Signer"), tx.feePayer()});
    summary.fields.append(
        {QStringLiteral("To"), recipients.isEmpty()     ? QStringLiteral("no SOL transfer")
                               : recipients.size() == 1 ? recipients.constFirst()
                                                        : recipients.join(QStringLiteral(", "))});
    QString amount = transfers > 0 ? lamports(total) : QStringLiteral("none in SOL");
    if (others > 0)
        amount += QStringLiteral(", and %1 other instruction%2 not read here")
                      .arg(others)
                      .arg(others == 1 ? QString() : QStringLiteral("s"));
    summary.fields.append({QStringLiteral("Amount"), amount});
    const quint64 baseFee = kLamportsPerSignature * quint64(tx.signatures.size());
    summary.fields.append({QStringLiteral("Fee"),
                           QStringLiteral("%1 base fee (%2 × %3 lamports), plus any priority fee")
                               .arg(lamports(baseFee),
                                    tx.signatures.size() == 1
                                        ? QStringLiteral("1 signature")
                                        : QStringLiteral("%1 signatures").arg(tx.signatures.size()),
                                    grouped(kLamportsPerSignature))});
    return summary;
}

TransactionSummary summarizeEvm(const QByteArray& wire)
{
    TransactionSummary summary;
    const auto decoded = evm::decodeTransaction(wire);
    if (!decoded) {
        summary.error = decoded.error().message;
        return summary;
    }
    const evm::Transaction& tx = *decoded;
    const auto sender = evm::recoverSender(tx);
    summary.fields.append(
        {QStringLiteral("From"),
         sender ? evm::checksumAddress(*sender)
                : QStringLiteral("no sender recovered: %1").arg(sender.error().message)});
    summary.fields.append(
        {QStringLiteral("To"),
         tx.to ? evm::checksumAddress(*tx.to) : QStringLiteral("none (creates a contract)")});
    summary.fields.append({QStringLiteral("Amount"), wei(evm::toDecimal(tx.value))});
    const bool feeMarket = tx.type == 2 || tx.type == 4;
    const QByteArray perGas = feeMarket ? tx.maxFeePerGas : tx.gasPrice;
    summary.fields.append(
        {QStringLiteral("Fee"),
         QStringLiteral("at most %1 (gas limit %2 × %3 %4 wei)")
             .arg(wei(evm::toDecimal(multiplied(perGas, tx.gasLimit))), grouped(tx.gasLimit),
                  feeMarket ? QStringLiteral("max fee") : QStringLiteral("gas price"),
                  grouped(evm::toDecimal(perGas)))});
    return summary;
}

} // namespace

QString TransactionSummary::oneLine() const
{
    if (!ok())
        return error;
    QStringList parts;
    for (const Field& field : fields)
        parts.append(field.label + QLatin1Char(' ') + field.value);
    return parts.join(QStringLiteral(" · "));
}

QString TransactionSummary::lines() const
{
    if (!ok())
        return error;
    QStringList out;
    for (const Field& field : fields)
        out.append(field.label + QStringLiteral(": ") + field.value);
    return out.join(QLatin1Char('\n'));
}

TransactionSummary summarizeTransaction(ChainFamily family, const QByteArray& wire)
{
    return family == ChainFamily::Solana ? summarizeSolana(wire) : summarizeEvm(wire);
}

} // namespace switchyard::chain
