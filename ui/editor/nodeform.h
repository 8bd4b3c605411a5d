#pragma once

#include "config/config.h"
#include "editorfields.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QTableWidget;

namespace switchyard::ui {

// One node: name, URL template (with ${NAME} for keys) and how it will be shown (redacted),
// roles, extra headers, WebSocket URL, CA file and cleartext HTTP/2.
class NodeForm : public QWidget
{
    Q_OBJECT
public:
    explicit NodeForm(QWidget* parent = nullptr);

    void load(const NodeConfig& node, const QString& network);
    void store(NodeConfig& node) const;
    void showErrors(const FieldErrors& errors);
    QString errorText(const QString& field) const;

    QLineEdit* nameEdit() const { return m_name; }
    QLineEdit* urlEdit() const { return m_url; }
    QString urlPreview() const; // the URL as every view will show it
    QLineEdit* wsUrlEdit() const { return m_wsUrl; }
    QString wsUrlPreview() const;
    QLineEdit* caFileEdit() const { return m_caFile; }
    QCheckBox* cleartextHttp2Box() const { return m_cleartextHttp2; }
    QCheckBox* roleBox(NodeRole role) const;
    QTableWidget* headerTable() const { return m_headers; }
    void addHeader(const QString& name = {}, const QString& valueTemplate = {});

Q_SIGNALS:
    void edited();

private:
    void changed();
    void updatePreview();

    QLabel* m_title;
    QLineEdit* m_name;
    QLineEdit* m_url;
    QLabel* m_preview;
    QLabel* m_urlHint;
    QLineEdit* m_wsUrl;
    QLabel* m_wsPreview;
    QList<std::pair<NodeRole, QCheckBox*>> m_roles;
    QTableWidget* m_headers;
    QLineEdit* m_caFile;
    QCheckBox* m_cleartextHttp2;
    QHash<QString, FieldErrorLabel*> m_errors;
    QString m_network;
    bool m_loading = false;
};

} // namespace switchyard::ui
