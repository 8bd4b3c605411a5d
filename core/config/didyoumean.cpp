#include "didyoumean.h"

#include "config/jsonsourcemap.h"

#include <algorithm>

namespace switchyard {

namespace {

qsizetype editDistance(const QString& a, const QString& b)
{
    QList<qsizetype> row(b.size() + 1);
    for (qsizetype j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (qsizetype i = 1; i <= a.size(); ++i) {
        qsizetype diagonal = row[0];
        row[0] = i;
        for (qsizetype j = 1; j <= b.size(); ++j) {
            const qsizetype above = row[j];
            const bool same = a.at(i - 1).toLower() == b.at(j - 1).toLower();
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

QString closestMatch(const QString& word, const QStringList& candidates)
{
    QString best;
    qsizetype bestDistance = std::max<qsizetype>(2, word.size() / 3) + 1;
    for (const QString& candidate : candidates) {
        const qsizetype distance = editDistance(word, candidate);
        if (distance < bestDistance) {
            best = candidate;
            bestDistance = distance;
        }
    }
    return best;
}

} // namespace

QString didYouMean(const QString& word, const QStringList& candidates)
{
    const QString suggestion = closestMatch(word, candidates);
    if (suggestion.isEmpty())
        return QString();
    return QStringLiteral(" (did you mean %1?)").arg(quotedForMessage(suggestion));
}

} // namespace switchyard
