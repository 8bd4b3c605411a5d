#pragma once

#include <QString>
#include <QStringList>

namespace switchyard {

// " (did you mean "networks"?)" when one of `candidates` is within a slip of typing of `word`
// (edit distance, ignoring case, of at most a third of its length and at least 2): the closest
// one. Empty when none is that close.
QString didYouMean(const QString& word, const QStringList& candidates);

} // namespace switchyard
