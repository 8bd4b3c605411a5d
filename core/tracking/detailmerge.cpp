#include "detailmerge.h"

namespace switchyard::tracking {

namespace {

QString heightText(std::optional<qint64> height)
{
    return height ? QString::number(*height) : QStringLiteral("none");
}

QString bytesText(const QByteArray& wire)
{
    return QStringLiteral("%1 bytes (base64 %2…)")
        .arg(wire.size())
        .arg(QString::fromLatin1(wire.left(12).toBase64()));
}

} // namespace

DetailMerge mergeDetails(const TrackedTransaction& held, const TrackedTransaction& given)
{
    DetailMerge out;
    out.merged = held;
    const auto conflict = [&](const char* field, const QString& heldValue,
                              const QString& givenValue) {
        out.conflicts.append({held.id, QLatin1String(field), heldValue, givenValue});
    };
    if (!given.network.isEmpty() && given.network != held.network)
        conflict("network", held.network, given.network);
    if (!given.intentId.isEmpty() && !held.intentId.isEmpty() && given.intentId != held.intentId)
        conflict("intentId", held.intentId, given.intentId);
    if (given.lastValidBlockHeight && held.lastValidBlockHeight &&
        *given.lastValidBlockHeight != *held.lastValidBlockHeight)
        conflict("lastValidBlockHeight", heightText(held.lastValidBlockHeight),
                 heightText(given.lastValidBlockHeight));
    if (given.wire && held.wire && *given.wire != *held.wire)
        conflict("signed bytes", bytesText(*held.wire), bytesText(*given.wire));
    if (!out.conflicts.isEmpty())
        return out;

    if (held.isWatchOnly() && !given.isWatchOnly()) {
        out.merged.wire = given.wire;
        out.merged.recentBlockhash = given.recentBlockhash;
        out.merged.sender = given.sender;
        out.merged.nonce = given.nonce;
        out.gained = true;
    }
    if (!held.lastValidBlockHeight && given.lastValidBlockHeight) {
        out.merged.lastValidBlockHeight = given.lastValidBlockHeight;
        out.gained = true;
    }
    if (held.intentId.isEmpty() && !given.intentId.isEmpty()) {
        out.merged.intentId = given.intentId;
        out.gained = true;
    }
    return out;
}

} // namespace switchyard::tracking
