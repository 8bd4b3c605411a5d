#include "columnroom.h"

#include <QEvent>
#include <QHeaderView>
#include <QTableView>
#include <algorithm>
#include <numeric>

namespace switchyard::columns {

QList<int> share(const QList<Need>& needs, int room, int flexible)
{
    QList<int> widths;
    widths.reserve(needs.size());
    for (const Need& need : needs)
        widths << need.wanted;
    const int total = std::accumulate(widths.cbegin(), widths.cend(), 0);
    if (total <= room) {
        if (flexible >= 0 && flexible < widths.size())
            widths[flexible] += room - total;
        return widths;
    }
    QList<int> yielding;
    for (int column = 0; column < needs.size(); ++column)
        if (needs[column].yieldRank >= 0)
            yielding << column;
    std::stable_sort(yielding.begin(), yielding.end(), [&](int left, int right) {
        return needs[left].yieldRank < needs[right].yieldRank;
    });
    int excess = total - room;
    for (const int column : yielding) {
        if (excess <= 0)
            break;
        // A column whose floor is 0 goes whole: a sliver of it would say nothing.
        const int given = needs[column].floor == 0
                              ? widths[column]
                              : std::clamp(widths[column] - needs[column].floor, 0, excess);
        widths[column] -= given;
        excess -= given;
    }
    if (excess < 0 && flexible >= 0 && flexible < widths.size())
        widths[flexible] -= excess;
    return widths;
}

void apply(QHeaderView* header, const QList<int>& widths)
{
    for (int column = 0; column < widths.size(); ++column) {
        header->setSectionHidden(column, widths[column] <= 0);
        if (widths[column] > 0 && header->sectionSize(column) != widths[column])
            header->resizeSection(column, widths[column]);
    }
}

Refitter::Refitter(QTableView* table, std::function<void()> fit)
    : QObject(table)
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(0);
    connect(&m_timer, &QTimer::timeout, this, std::move(fit));
    table->viewport()->installEventFilter(this);
}

bool Refitter::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::Resize)
        schedule();
    return QObject::eventFilter(watched, event);
}

} // namespace switchyard::columns
