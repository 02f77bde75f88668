-- The inventory as it is now.
SELECT private_ip, hostname, tier, interface_id
FROM ref.host_inventory
ORDER BY private_ip;
