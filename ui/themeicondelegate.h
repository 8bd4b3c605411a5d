#pragma once

#include <QStyledItemDelegate>

namespace switchyard::ui {

// Shows the theme icon a model names in `iconNameRole` beside the cell's text: core models
// name icons (they link no GUI), the view draws them, at the size the tables use.
class ThemeIconDelegate : public QStyledItemDelegate
{
public:
    // `widestText`: when the column is too narrow for it, every row shows its icon alone (rather
    // than elided words, some whole and some not); without it, text elides as usual.
    ThemeIconDelegate(int iconNameRole, QObject* parent, QString widestText = {});

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;

private:
    int m_iconNameRole;
    QString m_widestText;
};

} // namespace switchyard::ui
