package io.sprout.boot.servlet.session;

import jakarta.servlet.http.HttpSession;

/** Where sessions report their lifecycle; the servlet context implements it by calling its registered listeners. */
public interface SessionEvents {

    void created(HttpSession session);

    void destroyed(HttpSession session);

    void idChanged(HttpSession session, String oldId);

    void attributeAdded(HttpSession session, String name, Object value);

    void attributeReplaced(HttpSession session, String name, Object oldValue);

    void attributeRemoved(HttpSession session, String name, Object value);
}
