#pragma once

#include <QList>
#include <QString>

namespace switchyard::tracking {

// One transaction of an import's text, and the lines it came from.
struct ImportEntry
{
    int firstLine = 0; // 1-based
    int lastLine = 0;
    QString text; // trimmed; the lines of a wrapped transaction joined
};

// The entries of an import's text: one per line (empty lines and lines starting with '#' are
// skipped), except base64 wrapped over lines as `base64` (76 columns) or PEM tools (64) write
// it. Such lines are one transaction when
// - the first is no transaction by itself, and its width is a multiple of 4 with no padding;
// - each next one is base64 no wider than the first, and no transaction by itself either;
// - every line but the last has the first one's width;
// - and together they decode as a Solana transaction (which ends them there).
// Lines that do not meet all of it stay one entry each, and each is judged (and refused) on its
// own. A transaction on one line is always read alone, so lines of equal width that each hold a
// transaction are never joined.
QList<ImportEntry> importEntries(const QString& text);

} // namespace switchyard::tracking
