#pragma once

#include <QList>
#include <QObject>
#include <QTimer>
#include <functional>

class QHeaderView;
class QTableView;

namespace switchyard::columns {

// What one table column asks of the width a table has.
struct Need
{
    int wanted = 0;     // the width its widest usual content takes
    int floor = 0;      // the narrowest it may become: elided, its tooltip holding the rest
    int yieldRank = -1; // the order in which columns give way when room is short; -1: never
};

// Widths for `needs` within `room` pixels. Every column gets what it wants when that fits and
// `flexible` takes the spare; when it does not fit, columns give up width in `yieldRank` order,
// each down to its floor, so that the columns that say the most keep their text. A table
// narrower than every floor scrolls.
QList<int> share(const QList<Need>& needs, int room, int flexible);

// Applies `widths` to `header`'s sections in logical order; a width of 0 hides its section (a
// column given way entirely, or one its view leaves out).
void apply(QHeaderView* header, const QList<int>& widths);

// Runs a view's `fit` from the event loop, once for a burst of reasons: its table's viewport
// was resized (a window, a splitter, a scroll bar coming or going), or schedule() was called
// (rows arrived, a filter changed).
class Refitter : public QObject
{
public:
    Refitter(QTableView* table, std::function<void()> fit);
    void schedule() { m_timer.start(); }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QTimer m_timer;
};

} // namespace switchyard::columns
