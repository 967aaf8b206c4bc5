/* a2a-docgen catalogue script */
