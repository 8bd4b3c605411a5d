#include "importentries.h"

#include "chain/codec/base58.h"
#include "chain/codec/base64.h"
#include "chain/solana/solanatransaction.h"

namespace switchyard::tracking {

namespace {

using namespace switchyard::chain;

bool isBase64Character(QChar c)
{
    return (c >= u'A' && c <= u'Z') || (c >= u'a' && c <= u'z') || (c >= u'0' && c <= u'9') ||
           c == u'+' || c == u'/';
}

// Base64 characters, then at most two '=' of padding at the end.
bool isBase64Line(const QString& line)
{
    qsizetype end = line.size();
    for (int padding = 0; padding < 2 && end > 0 && line[end - 1] == u'='; ++padding)
        --end;
    if (end == 0)
        return false;
    for (qsizetype i = 0; i < end; ++i) {
        if (!isBase64Character(line[i]))
            return false;
    }
    return true;
}

bool isSolanaTransaction(const QString& base64)
{
    const auto bytes = base64Decode(base64);
    return bytes && solana::decodeTransaction(*bytes).ok();
}

// What a line can be on its own: a transaction (base64 or base58) or a signature.
bool isWholeByItself(const QString& line)
{
    if (isSolanaTransaction(line))
        return true;
    const auto base58 = base58Decode(line);
    return base58 &&
           (base58->size() == solana::kSignatureSize || solana::decodeTransaction(*base58).ok());
}

// The longest base64 a Solana transaction (one packet) can be: joining stops there.
constexpr qsizetype kMaxTransactionBase64 = (solana::kMaxTransactionSize + 2) / 3 * 4;

bool canStartWrapping(const QString& line)
{
    return line.size() % 4 == 0 && !line.endsWith(u'=') &&
           !line.startsWith(QLatin1String("0x"), Qt::CaseInsensitive) && isBase64Line(line) &&
           !isWholeByItself(line);
}

// The lines from `first` on that form one wrapped transaction: how many, or 0.
qsizetype wrappedLines(const QStringList& lines, qsizetype first)
{
    const QString& head = lines[first];
    if (!canStartWrapping(head))
        return 0;
    const qsizetype width = head.size();
    QString joined = head;
    for (qsizetype next = first + 1; next < lines.size(); ++next) {
        const QString& line = lines[next];
        if (line.size() > width || joined.size() + line.size() > kMaxTransactionBase64 ||
            !isBase64Line(line) || isWholeByItself(line))
            return 0;
        joined += line;
        if (isSolanaTransaction(joined))
            return next - first + 1;
        if (line.size() < width || line.endsWith(u'='))
            return 0; // the last line of a wrapping, and still no transaction
    }
    return 0;
}

bool isSkipped(const QString& line)
{
    return line.isEmpty() || line.startsWith(u'#');
}

} // namespace

QList<ImportEntry> importEntries(const QString& text)
{
    QStringList lines = text.split(u'\n');
    for (QString& line : lines)
        line = line.trimmed();
    QList<ImportEntry> entries;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (isSkipped(lines[i]))
            continue;
        const qsizetype wrapped = wrappedLines(lines, i);
        if (wrapped == 0) {
            entries.append({int(i + 1), int(i + 1), lines[i]});
            continue;
        }
        entries.append({int(i + 1), int(i + wrapped), lines.mid(i, wrapped).join(QString())});
        i += wrapped - 1;
    }
    return entries;
}

} // namespace switchyard::tracking
