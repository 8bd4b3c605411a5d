#include "eventredactor.h"

#include <QRegularExpression>

namespace switchyard {

EventRedactor::EventRedactor(SecretScrubber scrubber)
    : m_scrubber(std::move(scrubber))
{}

bool EventRedactor::needsWork(QByteArrayView utf8) const
{
    return !m_scrubber.isEmpty() || utf8.contains(QByteArrayView("://"));
}

QString EventRedactor::redacted(const QString& text) const
{
    QString result = m_scrubber.scrub(text);
    if (!result.contains(QStringLiteral("://")))
        return result;
    // A URL runs to the next space or quote; IPv6 brackets stay inside it.
    static const QRegularExpression url(
        QStringLiteral("[A-Za-z][A-Za-z0-9+.\\-]*://[^\\s\"'<>`]+"));
    QString out;
    qsizetype copied = 0;
    QRegularExpressionMatchIterator it = url.globalMatch(result);
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        QString found = match.captured();
        // Sentence punctuation after a URL is not part of it.
        qsizetype trailing = 0;
        while (trailing < found.size() &&
               QStringView(u".,;:!?)]").contains(found[found.size() - 1 - trailing]))
            ++trailing;
        found.chop(trailing);
        out += QStringView(result).sliced(copied, match.capturedStart() - copied);
        out += redactedUrlText(found);
        copied = match.capturedStart() + found.size();
    }
    out += QStringView(result).sliced(copied);
    return out;
}

} // namespace switchyard
